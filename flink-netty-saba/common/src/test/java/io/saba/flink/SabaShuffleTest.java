package io.saba.flink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The extension end to end: MiniClusters of two TaskManagers (real Netty connections over loopback) against a real
 * controller on loopback.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SabaShuffleTest {
    private static final long N = 200_000;
    private static final int KEYS = 97;

    private static EmbeddedController controller;
    private static MiniCluster saba;

    @BeforeAll
    static void start() throws Exception {
        controller = Controllers.start();
        saba = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (saba != null) {
            saba.close();
        }
        if (controller != null) {
            controller.close();
        }
    }

    private static void assertCorrect(Map<String, Object> acc) {
        long[] want = ShuffleJob.expected(N, KEYS);
        assertEquals(want[0], acc.get(ShuffleJob.KEYS), "keys");
        assertEquals(want[1], acc.get(ShuffleJob.CHECKSUM), "checksum");
    }

    @Test
    void sameResultWithAndWithoutSaba() throws Exception {
        Map<String, Object> withSaba = Clusters.run(saba, ShuffleJob.build("with", N, KEYS, 4, 0, "lr", null));
        Map<String, Object> withNetty;
        try (MiniCluster netty = Clusters.netty()) {
            withNetty = Clusters.run(netty, ShuffleJob.build("without", N, KEYS, 4, 0, "lr", null));
        }
        assertEquals(withNetty.get(ShuffleJob.CHECKSUM), withSaba.get(ShuffleJob.CHECKSUM));
        assertEquals(withNetty.get(ShuffleJob.KEYS), withSaba.get(ShuffleJob.KEYS));
        assertCorrect(withSaba);
    }

    @Test
    void controllerSeesTheJobItsConnectionsAndItsEnd() throws Exception {
        CountDownLatch started = ShuffleJob.arm("seen", 4);
        JobID id = Clusters.submit(saba, ShuffleJob.build("seen", N, KEYS, 4, 0, "wc", "seen"));
        try {
            assertTrue(started.await(3, TimeUnit.MINUTES), "all four source subtasks started");
            // the sources run on both TaskManagers: each produces for the other, both directions reported
            await("two connections of the job").atMost(Controllers.PATIENCE).until(() -> {
                AppView v = Controllers.app(controller, id);
                return v != null && v.connections() == 2;
            });
            AppView v = Controllers.app(controller, id);
            assertEquals("wc", v.workload(), "the job's own saba.workload");
            assertEquals("flink", v.framework());
            assertTrue(v.level() >= 1, "a Saba level, not the default class: " + v.level());
            v.open().forEach(k -> assertFalse(k.srcPort() == k.dstPort(), "TaskManager to another: " + k));
        } finally {
            ShuffleJob.open("seen");
        }
        assertCorrect(Clusters.await(saba, id));
        await("the job deregistered").atMost(Controllers.PATIENCE).until(() -> Controllers.app(controller, id) == null);
    }

    @Test
    void controllerKilledMidJobDoesNotFailTheJob() throws Exception {
        EmbeddedController doomed = Controllers.start();
        try (MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), doomed.target(),
                SabaOptions.CONTROLLER_TIMEOUT.key(), "500 ms"))) {
            CountDownLatch started = ShuffleJob.arm("killed", 4);
            JobID id = Clusters.submit(m, ShuffleJob.build("killed", N, KEYS, 4, 0, "lr", "killed"));
            assertTrue(started.await(3, TimeUnit.MINUTES));
            await("job registered").atMost(Controllers.PATIENCE).until(() -> Controllers.app(doomed, id) != null);
            doomed.close();
            ShuffleJob.open("killed");
            assertCorrect(Clusters.await(m, id));
            // and a job started while the controller is gone runs too, at the default level
            assertCorrect(Clusters.run(m, ShuffleJob.build("after", N, KEYS, 4, 0, "lr", null)));
        } finally {
            doomed.close();
        }
    }

    @Test
    void aControllerThatNeverAnswersOnlyDelaysTheStartAndTheEarlyStampIsReported() throws Exception {
        // a socket that accepts connections (the kernel's backlog) but never speaks: a hung controller
        try (ServerSocket mute = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
             MiniCluster m = Clusters.saba(Map.of(
                     SabaOptions.CONTROLLER_ADDRESS.key(), "127.0.0.1:" + mute.getLocalPort(),
                     SabaOptions.CONTROLLER_TIMEOUT.key(), "1 s",
                     SabaOptions.REGISTER_WAIT.key(), "500 ms"))) {
            JobID[] id = new JobID[1];
            String log = Logs.during(() -> {
                id[0] = Clusters.submit(m, ShuffleJob.build("hung", N, KEYS, 4, 0, "lr", null));
                assertCorrect(Clusters.await(m, id[0]));
            });
            String early = "job " + id[0] + "'s partitions are stamped before its level arrived";
            assertEquals(1, log.lines().filter(l -> l.contains(early)).count(),
                    "one warning for the job, naming it:\n" + log);
            assertFalse(log.contains("job " + id[0] + " registered"), "never claimed registered:\n" + log);
            assertFalse(log.contains("job " + id[0] + " deregistered"), "nor deregistered:\n" + log);
        }
    }

    @Test
    void fallbackNeverFailsTheJobWhenTheControllerIsAwayAndSoDoesTheDeprecatedFailFast() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        for (Map.Entry<String, String> policy : List.of(Map.entry(SabaOptions.FALLBACK.key(), "NEVER"),
                Map.entry(SabaOptions.FAIL_FAST.key(), "true"))) {
            try (MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), "127.0.0.1:" + closedPort,
                    SabaOptions.CONTROLLER_TIMEOUT.key(), "500 ms", policy.getKey(), policy.getValue()))) {
                AssertionError e = assertThrows(AssertionError.class,
                        () -> Clusters.run(m, ShuffleJob.build("fast", N, KEYS, 4, 0, "lr", null)), policy.toString());
                assertTrue(ExceptionUtils.findThrowableWithMessage(e, SabaOptions.FALLBACK.key() + " is NEVER")
                        .isPresent(), "the failure names the key: " + ExceptionUtils.stringifyException(e));
            }
        }
    }

    @Test
    void fallbackAlwaysIsPlainFlinkWithoutTheController() throws Exception {
        try (EmbeddedController unused = Controllers.start();
             MiniCluster m = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), unused.target(),
                     SabaOptions.FALLBACK.key(), "ALWAYS"))) {
            CountDownLatch started = ShuffleJob.arm("plain", 4);
            JobID id = Clusters.submit(m, ShuffleJob.build("plain", N, KEYS, 4, 0, "lr", "plain"));
            try {
                assertTrue(started.await(3, TimeUnit.MINUTES));
                assertEquals(0, unused.controller().appCount(), "no job reached the controller");
            } finally {
                ShuffleJob.open("plain");
            }
            assertCorrect(Clusters.await(m, id));
        }
    }

    @Test
    void aJobWithoutAWorkloadIsRegisteredUnderItsNameAtASabaLevel() throws Exception {
        CountDownLatch started = ShuffleJob.arm("unnamed", 4);
        JobID id = Clusters.submit(saba, ShuffleJob.build("Nightly Report #7", N, KEYS, 4, 0, null, "unnamed"));
        try {
            assertTrue(started.await(3, TimeUnit.MINUTES));
            await("the job registered").atMost(Controllers.PATIENCE)
                    .until(() -> Controllers.app(controller, id) != null);
            AppView v = Controllers.app(controller, id);
            assertEquals("nightly-report-7", v.workload(), "its name, as Spark names an application's workload");
            assertFalse(v.workloadKnown(), "the controller's default model");
            assertTrue(v.level() >= 1, "a Saba level, not the default class: " + v.level());
        } finally {
            ShuffleJob.open("unnamed");
        }
        assertCorrect(Clusters.await(saba, id));
    }

    @Test
    void badConfigurationFailsAtStartUpNamingTheKey() {
        Exception e = assertThrows(Exception.class,
                () -> Clusters.saba(Map.of(SabaOptions.DSCP_MAP.key(), "0:0,1:99")).close());
        assertTrue(ExceptionUtils.findThrowableWithMessage(e, SabaOptions.DSCP_MAP.key()).isPresent(),
                ExceptionUtils.stringifyException(e));
    }

    @Test
    void withoutAnAddressTheJobManagerRunsAnEmbeddedController() throws Exception {
        try (MiniCluster m = Clusters.saba(Map.of())) {
            assertCorrect(Clusters.run(m, ShuffleJob.build("embedded", N, KEYS, 4, 0, "lr", null)));
        }
    }
}
