package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.AppView;
import java.time.Duration;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real executors (local-cluster) against a real controller: the plugin changes no result, and the controller sees
 * the registration, the executors' shuffle connections and the deregistration.
 */
@Timeout(600)
class SabaShuffleManagerTest {
    private static EmbeddedController controller;

    @BeforeAll
    static void start() {
        controller = Fixtures.controller();
    }

    @AfterAll
    static void stop() {
        controller.close();
    }

    @Test
    void sameResultAndTheControllerSeesTheApplicationAndItsConnections() throws Exception {
        Map<Integer, Long> plain;
        try (JavaSparkContext jsc = new JavaSparkContext(LocalCluster.conf("plain"))) {
            plain = LocalCluster.job(jsc, 60_000, 97);
        }

        String appId;
        Map<Integer, Long> saba;
        try (JavaSparkContext jsc = new JavaSparkContext(
                LocalCluster.withSaba(LocalCluster.conf("saba"), controller.target(), "lr"))) {
            appId = jsc.sc().applicationId();
            // registration is asynchronous (the driver never waits for the controller)
            Fixtures.await("registration", Duration.ofSeconds(60), () -> Fixtures.app(controller, appId) != null);
            AppView registered = Fixtures.app(controller, appId);
            assertNotNull(registered);
            assertEquals("lr", registered.workload());
            assertEquals("spark", registered.framework());

            saba = LocalCluster.job(jsc, 60_000, 97);

            // two executors fetch from each other: each serving side reports the connection it accepted
            Fixtures.await("executor connections at the controller", Duration.ofSeconds(60),
                    () -> Fixtures.app(controller, appId).connections() >= 2);
            AppView v = Fixtures.app(controller, appId);
            System.out.println("controller sees " + v.connections() + " connections of " + appId + ": " + v.open());
            assertTrue(v.open().stream().allMatch(k -> k.srcPort() > 0 && k.dstPort() > 0));
        }
        assertEquals(plain, saba, "Saba must not change the job's result");
        assertEquals(97, saba.size());
        Fixtures.await("deregistration", Duration.ofSeconds(30), () -> Fixtures.app(controller, appId) == null);
        assertNull(Fixtures.app(controller, appId));
    }
}
