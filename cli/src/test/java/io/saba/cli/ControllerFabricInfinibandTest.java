package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.NetFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code saba controller --fabric infiniband --ibsim SOCKET} with no configuration file: it discovers the ibsim
 * subnet OpenSM brought up, and a connection between two simulated hosts changes the arbitration table of a
 * port on its path (read back with {@code smpquery vlarb}); stopping the controller puts the table back.
 */
class ControllerFabricInfinibandTest {
    @Test
    void discoversTheSubnetAndProgramsThePath(@TempDir Path dir) throws Exception {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
        try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve("net.2sw2path4hca"), 0)) {
            IbSubnet f = sim.tools().discover();
            int lid = f.switchNamed("Switch1").lid();
            var cl = SabaCli.newCommandLine();
            StringWriter out = new StringWriter();
            cl.setOut(new PrintWriter(out, true));
            int[] exit = {-1};
            String table = Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath().toString();
            Path config = java.nio.file.Files.writeString(dir.resolve("saba.yaml"), "table: " + table + "\n");
            Thread t = new Thread(() -> exit[0] = cl.execute("controller", "--config", config.toString(),
                    "--fabric", "infiniband", "--ibsim", sim.socket(), "--listen", "127.0.0.1:0",
                    "--ib-address", "Hca1=10.1.0.1", "--ib-address", "Hca2=10.1.0.2"));
            t.start();
            Pattern p = Pattern.compile("gRPC on 127\\.0\\.0\\.1:(\\d+)");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Matcher m = p.matcher("");
            while (System.nanoTime() < end && !(m = p.matcher(out.toString())).find() && t.isAlive()) {
                Thread.sleep(50);
            }
            assertTrue(m.find(0), "startup line: " + out + " exit " + exit[0]);
            // Hca1 hangs off Switch1, Hca2 off Switch2: the route's first hop is a Switch1 port
            String port = String.valueOf(f.path("Hca1", "Hca2", 0).get(0).port());
            String before = sim.tools().run("smpquery", "vlarb", String.valueOf(lid), port);
            String after = before;
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults("127.0.0.1:" + m.group(1)))) {
                SabaApplication app = client.register(new AppSpec("a", "lr", "spark", "u", 0));
                app.assigned().get(30, TimeUnit.SECONDS);
                app.connectionOpened(new InetSocketAddress("10.1.0.1", 7000), new InetSocketAddress("10.1.0.2", 7001),
                        Transport.RDMA);
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (after.equals(before) && System.nanoTime() < until) {
                    Thread.sleep(200);
                    after = sim.tools().run("smpquery", "vlarb", String.valueOf(lid), port);
                }
            }
            System.out.println("saba controller --fabric infiniband programmed Switch1:" + port + ":\n" + after);
            assertNotEquals(before, after, "the path's port got Saba's arbitration table");
            ControllerCommand command = cl.getSubcommands().get("controller").getCommand();
            command.stop();
            t.join(20_000);
            assertEquals(0, exit[0]);
            assertEquals(before, sim.tools().run("smpquery", "vlarb", String.valueOf(lid), port),
                    "closing the controller restores the tables");
        }
    }
}
