package io.saba.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.server.EmbeddedController;
import io.saba.process.PacketCapture;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.NettyShuffleEnvironmentOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire: two concurrent jobs of different workloads in one MiniCluster (a session cluster: both jobs' tasks share
 * the two TaskManagers), captured on loopback. Every segment with a payload, data from the servers and requests and
 * credits from the clients, must carry the DSCP of the level the controller gave one of the jobs, each socket
 * exactly one, and both levels must be seen.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PacketCaptureTest {
    private static final long N = 200_000;
    private static final int KEYS = 97;

    @Test
    void twoConcurrentJobsCarryTheirOwnDscp(@TempDir Path dir) throws Exception {
        String why = PacketCapture.unavailable();
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        // below Linux's ephemeral range, so a port in it is a TaskManager's data server, never a client
        int from = 20_000 + 50 * ThreadLocalRandom.current().nextInt(200);
        int to = from + 49;
        try (EmbeddedController controller = Controllers.start();
             SabaClient warm = SabaClient.connect(ClientConfig.defaults(controller.target()))) {
            // other applications already run both workloads, so the two jobs join a settled plan
            SabaApplication lr = warm.register(new AppSpec("running-lr", "lr", "test", "t", 0));
            SabaApplication wc = warm.register(new AppSpec("running-wc", "wc", "test", "t", 0));
            lr.assigned().get(1, TimeUnit.MINUTES);
            wc.assigned().get(1, TimeUnit.MINUTES);
            // the controller's view is the current one
            await("both registered").atMost(Controllers.PATIENCE)
                    .until(() -> controller.controller().app("running-wc") != null);
            int levelLr = controller.controller().app("running-lr").level();
            int levelWc = controller.controller().app("running-wc").level();
            assertNotEquals(levelLr, levelWc, "the controller separates the two workloads");

            try (MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target(),
                    NettyShuffleEnvironmentOptions.DATA_BIND_PORT.key(), from + "-" + to));
                 PacketCapture capture = PacketCapture.onLoopback("tcp portrange " + from + "-" + to,
                         dir.resolve("flink.pcap"))) {
                CountDownLatch startedA = ShuffleJob.arm("A", 2);
                CountDownLatch startedB = ShuffleJob.arm("B", 2);
                JobID a = Clusters.submit(m, ShuffleJob.build("A", N, KEYS, 2, 64, "lr", "A"));
                JobID b = Clusters.submit(m, ShuffleJob.build("B", N, KEYS, 2, 0, "wc", "B"));
                assertTrue(startedA.await(3, TimeUnit.MINUTES) && startedB.await(3, TimeUnit.MINUTES));
                ShuffleJob.open("A");
                ShuffleJob.open("B");
                Clusters.await(m, a);
                Clusters.await(m, b);
                assertEquals(2, Clusters.taskManagersOf(m, a), "job A ran on both TaskManagers");
                assertEquals(2, Clusters.taskManagersOf(m, b), "job B ran on both TaskManagers");

                int dscpA = 8 * levelLr;
                int dscpB = 8 * levelWc;
                Map<Integer, Long> bytesByDscp = new HashMap<>();
                Map<String, Set<Integer>> dscpsBySocket = new HashMap<>();
                List<PacketCapture.Segment> packets = capture.stop();
                Map<Integer, Long> requestSegmentsByDscp = new HashMap<>();
                for (PacketCapture.Segment p : packets) {
                    if (p.payload() == 0) {
                        continue; // handshake and pure ACKs: the handshake precedes tagging
                    }
                    boolean fromServer = p.srcPort() >= from && p.srcPort() <= to;
                    String socket = fromServer ? p.srcPort() + "<>" + p.dstPort() : p.dstPort() + "<>" + p.srcPort();
                    dscpsBySocket.computeIfAbsent(socket, k -> new TreeSet<>()).add(p.dscp());
                    if (fromServer) {
                        bytesByDscp.merge(p.dscp(), (long) p.payload(), Long::sum);
                    } else {
                        requestSegmentsByDscp.merge(p.dscp(), 1L, Long::sum);
                    }
                }
                System.out.printf("captured %d segments; data bytes by DSCP %s, request/credit segments by DSCP %s "
                        + "(job A lr=%d, job B wc=%d); sockets %s%n", packets.size(), bytesByDscp,
                        requestSegmentsByDscp, dscpA, dscpB, dscpsBySocket);
                assertFalse(bytesByDscp.isEmpty(), "data crossed the loopback between the TaskManagers");
                assertEquals(Set.of(dscpA, dscpB), bytesByDscp.keySet(),
                        "data segments carry exactly the two jobs' DSCPs: " + bytesByDscp);
                assertEquals(Set.of(dscpA, dscpB), requestSegmentsByDscp.keySet(),
                        "requests and credits travel in the jobs' classes too: " + requestSegmentsByDscp);
                dscpsBySocket.forEach((socket, dscps) -> assertEquals(1, dscps.size(),
                        "socket " + socket + " carries one level, both ways: " + dscps));
                // job A moves ~5x the bytes of job B (64-byte payloads): its DSCP must carry more
                assertTrue(bytesByDscp.get(dscpA) > bytesByDscp.get(dscpB), bytesByDscp.toString());
            }
        }
    }

    /**
     * Issue 23 item 3: a job's partitions carry the level they were stamped with, so the controller must not
     * renumber a running job. Three workloads register one by one: job A (lr) runs first and its partitions are
     * stamped while it waits at its gate; then wc, less sensitive, and then an unknown workload (the table's mean
     * model, in between) register. Clustering from scratch would have moved lr from level 1 to 2 to 3 with every
     * newcomer, leaving A's data in level 1's queue; the first job's data must carry the DSCP of the level the
     * controller holds for it at the end.
     */
    @Test
    void theFirstJobsDataCarriesItsFinalDscpAfterTwoMoreWorkloadsRegister(@TempDir Path dir) throws Exception {
        String why = PacketCapture.unavailable();
        Assumptions.assumeTrue(why == null, "skipped: " + why);
        int from = 20_000 + 50 * ThreadLocalRandom.current().nextInt(200);
        int to = from + 49;
        try (EmbeddedController controller = Controllers.start();
             SabaClient others = SabaClient.connect(ClientConfig.defaults(controller.target()));
             MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target(),
                     NettyShuffleEnvironmentOptions.DATA_BIND_PORT.key(), from + "-" + to));
             PacketCapture capture = PacketCapture.onLoopback("tcp portrange " + from + "-" + to,
                     dir.resolve("flink.pcap"))) {
            CountDownLatch started = ShuffleJob.arm("first", 2);
            JobID a = Clusters.submit(m, ShuffleJob.build("first", N, KEYS, 2, 64, "lr", "first"));
            assertTrue(started.await(3, TimeUnit.MINUTES), "job A runs (its partitions are stamped)");
            int initial = Controllers.app(controller, a).level();
            assertTrue(initial >= 1, "job A has a Saba level");

            String[][] later = {{"second-wc", "wc"}, {"third-unknown", "a-workload-the-table-lacks"}};
            for (String[] app : later) {
                SabaApplication registered = others.register(new AppSpec(app[0], app[1], "test", "t", 0));
                registered.assigned().get(1, TimeUnit.MINUTES);
                await(app[0] + " registered").atMost(Controllers.PATIENCE)
                        .until(() -> controller.controller().app(app[0]) != null);
            }
            int last = Controllers.app(controller, a).level();
            Set<Integer> levels = new TreeSet<>(List.of(last, controller.controller().app("second-wc").level(),
                    controller.controller().app("third-unknown").level()));
            assertEquals(3, levels.size(), "three workloads, three levels: " + levels);

            ShuffleJob.open("first");
            Clusters.await(m, a);
            assertEquals(2, Clusters.taskManagersOf(m, a), "job A ran on both TaskManagers, so its shuffle can cross "
                    + "the loopback");
            Map<Integer, Long> bytesByDscp = new HashMap<>();
            for (PacketCapture.Segment p : capture.stop()) {
                if (p.payload() > 0 && p.srcPort() >= from && p.srcPort() <= to) {
                    bytesByDscp.merge(p.dscp(), (long) p.payload(), Long::sum);
                }
            }
            System.out.printf("job A (lr): level %d when its partitions were stamped, %d at the end; data bytes by "
                    + "DSCP %s%n", initial, last, bytesByDscp);
            assertFalse(bytesByDscp.isEmpty(), "data crossed the loopback between the TaskManagers");
            assertEquals(Set.of(8 * last), bytesByDscp.keySet(),
                    "job A's data carries the DSCP of its final level " + last + ": " + bytesByDscp);
        }
    }
}
