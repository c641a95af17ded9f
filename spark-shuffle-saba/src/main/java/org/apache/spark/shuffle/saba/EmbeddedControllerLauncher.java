package org.apache.spark.shuffle.saba;

import io.saba.controller.EmbeddedController;
import io.saba.controller.table.ModelCatalog;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.topology.Topology;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Starts the controller inside the driver when no {@code spark.saba.controller.address} is given: the way to try
 * Saba on one machine. It listens on loopback (only this driver talks to it: executors reach Saba through the
 * driver plugin), keeps its state in memory and uses the dry-run fabric backend, so it decides levels and port
 * weights but programs nothing.
 */
final class EmbeddedControllerLauncher {
    private EmbeddedControllerLauncher() {
    }

    static EmbeddedController start(SabaConf conf) {
        try {
            TopologyResolver topology = conf.embeddedTopology() != null
                    ? TopologyLoader.load(conf.embeddedTopology()) : thisMachine();
            ModelCatalog table = conf.embeddedTable() != null
                    ? ModelCatalog.parse(Files.readString(conf.embeddedTable()), SabaConf.EMBEDDED_TABLE)
                    : ModelCatalog.empty();
            EmbeddedController c = EmbeddedController.builder().topology(topology).table(table).grpcThreads(2)
                    .build();
            c.start();
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException("Saba: cannot start the embedded controller", e);
        }
    }

    /**
     * One host, "local", owning every address of this machine, behind one switch: executors on this machine are
     * then known endpoints (their connections cross no switch port, so they change no weights).
     */
    static TopologyResolver thisMachine() {
        Topology t = Topology.builder().switchNode("s0", 8).host("local").link("s0", 1, "local", 1, 10).build();
        return new TopologyResolver(t, Map.of("local", localAddresses()));
    }

    private static List<String> localAddresses() {
        List<String> out = new ArrayList<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    String ip = a.getHostAddress();
                    int zone = ip.indexOf('%');
                    out.add(zone < 0 ? ip : ip.substring(0, zone));
                }
            }
        } catch (SocketException e) {
            out.add("127.0.0.1");
        }
        return out.stream().distinct().toList();
    }
}
