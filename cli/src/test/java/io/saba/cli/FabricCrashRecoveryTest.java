package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbTools;
import io.saba.controller.topology.infiniband.NetFiles;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.Transport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 2, on ibsim with a real OpenSM: a controller process programs a port's SL→VL and VL arbitration
 * tables and is killed with SIGKILL. A controller started after it must give the port its original tables back (not
 * the crashed one's, which is what the port holds when it is read again), and {@code saba fabric status|restore}
 * must show and put back what a crash left when no controller does.
 */
class FabricCrashRecoveryTest {
    private static final Pattern GRPC = Pattern.compile("gRPC on 127\\.0\\.0\\.1:(\\d+)");

    @Test
    void aControllerAfterACrashAndFabricRestoreGiveThePortsTheirOriginalTables(@TempDir Path dir) throws Exception {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
        try (IbSim sim = new IbSim(NetFiles.EXAMPLES.resolve("net.2sw2path4hca"), 0)) {
            IbTools tools = sim.tools();
            IbSubnet f = tools.discover();
            Map<PortId, String> original = tables(tools, f);
            Path config = Files.writeString(dir.resolve("saba.yaml"), String.join("\n",
                    "listen: 127.0.0.1:0",
                    "topology: {discover: infiniband, ibsim: " + sim.socket() + ", refresh-seconds: 0,",
                    "           addresses: {Hca1: [10.1.0.1], Hca2: [10.1.0.2]}}",
                    "table: " + Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath(),
                    "levels: 16",
                    "recompute-interval-millis: 20",
                    "lease-timeout-seconds: 600",   // the raw stub below sends no heartbeats
                    "backend: infiniband",
                    // the SMP agent is a JVM: on a loaded machine its start can take longer than the default allows
                    "backend-options: {ibsim: " + sim.socket() + ", call-timeout-millis: 120000}",
                    "journal-dir: state",
                    "journal-fsync: always",
                    ""));

            // 1. a controller process programs the path and is killed
            programThenKill(dir, config, tools, f, original, "app-1");

            // 2. the next controller restores the journal, takes the port again, and gives it back when the
            //    application leaves: the original tables, not the crashed controller's
            try (EmbeddedController c = ControllerConfig.load(config)) {
                c.start();
                awaitPorts(c, false);
                c.controller().deregister("", "app-1");
                awaitPorts(c, true);
                assertEquals(original, tables(tools, f), "every port back to its original tables");
            }

            // 3. no controller: saba fabric status shows what a crash left, restore puts it back
            programThenKill(dir, config, tools, f, original, "app-2");
            SabaProcess.Result status = SabaProcess.run(dir, 120, "fabric", "status", "--config", config.toString());
            assertEquals(0, status.exit(), status.err());
            assertTrue(status.out().contains("not its original tables"), status.out());
            SabaProcess.Result restore = SabaProcess.run(dir, 120, "fabric", "restore", "--config",
                    config.toString());
            assertEquals(0, restore.exit(), restore.out() + restore.err());
            assertTrue(restore.out().contains(": restored"), restore.out());
            assertEquals(original, tables(tools, f), "saba fabric restore put every port back");
            status = SabaProcess.run(dir, 120, "fabric", "status", "--config", config.toString());
            assertTrue(status.out().contains("no port holds anything Saba left"), status.out());
        }
    }

    /** A controller process registers {@code app}, opens Hca1 → Hca2, waits for the tables, and is SIGKILLed. */
    private static void programThenKill(Path dir, Path config, IbTools tools, IbSubnet f, Map<PortId, String> original,
                                        String app) throws Exception {
        Path out = dir.resolve(app + ".out");
        Process p = SabaProcess.start(dir, out, dir.resolve(app + ".err"), "controller", "--config",
                config.toString());
        try {
            Matcher m = GRPC.matcher("");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < end && p.isAlive() && !(m = GRPC.matcher(Files.readString(out))).find()) {
                Thread.sleep(100);
            }
            assertTrue(m.find(0), "controller started: " + Files.readString(dir.resolve(app + ".err")));
            ManagedChannel ch = NettyChannelBuilder.forTarget("127.0.0.1:" + m.group(1)).usePlaintext().build();
            try {
                var stub = ControllerGrpc.newBlockingStub(ch).withDeadlineAfter(60, TimeUnit.SECONDS);
                stub.register(RegisterRequest.newBuilder().setAppId(app).setWorkload("lr").setFramework("test")
                        .setUser("u").build());
                stub.connectionOpened(ConnectionEvent.newBuilder().setAppId(app).setConnection(Connection.newBuilder()
                        .setSrc(Endpoint.newBuilder().setIp("10.1.0.1").setPort(7000))
                        .setDst(Endpoint.newBuilder().setIp("10.1.0.2").setPort(7001))
                        .setTransport(Transport.RDMA)).build());
            } finally {
                ch.shutdownNow();
            }
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (tables(tools, f).equals(original) && System.nanoTime() < until) {
                Thread.sleep(200);
            }
            assertNotEquals(original, tables(tools, f), "the path's ports got Saba's tables; the controller said:\n"
                    + Files.readString(dir.resolve(app + ".err")));
        } finally {
            p.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook, nothing given back
        }
        assertNotEquals(original, tables(tools, f), "a killed controller leaves Saba's tables");
    }

    /** The VL arbitration and SL→VL tables of the ports on Hca1 → Hca2's path, as smpquery prints them. */
    private static Map<PortId, String> tables(IbTools tools, IbSubnet f) {
        Map<PortId, String> out = new TreeMap<>();
        for (PortId p : f.path("Hca1", "Hca2", 0)) {
            int lid = f.switchNamed(p.node()).lid();
            out.put(p, smpquery(tools, "vlarb", lid, p.port()) + smpquery(tools, "sl2vl", lid, p.port()));
        }
        return out;
    }

    /**
     * One smpquery, tried again after a MAD timeout: right after a process attached to ibsim is SIGKILLed, ibsim
     * can drop an answer to the next client that attaches.
     */
    private static String smpquery(IbTools tools, String what, int lid, int port) {
        for (int attempt = 1; ; attempt++) {
            try {
                return tools.run("smpquery", what, String.valueOf(lid), String.valueOf(port));
            } catch (IllegalStateException e) {
                if (attempt == 3 || !e.getMessage().contains("timed out")) {
                    throw e;
                }
            }
        }
    }

    /** Waits until the controller has pushed (ports allocated) or released everything. */
    private static void awaitPorts(EmbeddedController c, boolean none) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < end) {
            if (c.controller().recomputer().awaitQuiescent(Duration.ofSeconds(5))
                    && c.controller().recomputer().current().isEmpty() == none) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("ports never " + (none ? "released" : "allocated"));
    }
}
