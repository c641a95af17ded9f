package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.EmbeddedController;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The controller away: killed mid-job (real executors), or never there. Policy AUTO runs on with the same
 * result and one warning; policy NEVER fails fast.
 */
@Timeout(600)
class ControllerFailureTest {

    @Test
    void controllerKilledMidJobTheJobCompletesWithTheSameResult() throws Exception {
        EmbeddedController controller = Fixtures.controller();
        AtomicBoolean killed = new AtomicBoolean();
        SparkConf conf = LocalCluster.withSaba(LocalCluster.conf("killed"), controller.target(), "lr");
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            String appId = jsc.sc().applicationId();
            await("registration").atMost(Duration.ofSeconds(60))
                    .until(() -> Fixtures.app(controller, appId) != null);
            Map<Integer, Long> before = LocalCluster.job(jsc, 40_000, 53);
            SabaDriver d = SabaDriver.current();
            long warningsBefore = d.client().outageWarnings();

            // kill the controller as soon as the map stage of the next job is done: the reduce stage then fetches
            // shuffle blocks and reports connections with no controller
            jsc.sc().addSparkListener(new SparkListener() {
                @Override
                public void onStageCompleted(SparkListenerStageCompleted stage) {
                    if (killed.compareAndSet(false, true)) {
                        controller.close();
                    }
                }
            });
            Map<Integer, Long> during = LocalCluster.job(jsc, 40_000, 53);
            Map<Integer, Long> after = LocalCluster.job(jsc, 40_000, 53);
            assertTrue(killed.get());
            assertEquals(before, during);
            assertEquals(before, after);
            await("the outage noticed").atMost(Duration.ofSeconds(60))
                    .until(() -> !d.client().controllerReachable());
            Thread.sleep(2_000);
            assertEquals(warningsBefore + 1, d.client().outageWarnings(), "one warning for the whole outage");
            // stages ended during the outage: their signals are dropped (when the sender next drains its queue,
            // after its backoff), the jobs unaffected
            await("signals dropped").atMost(Duration.ofSeconds(90))
                    .until(() -> d.client().droppedSignals() > 0);
        }
    }

    @Test
    void autoWithNoControllerRunsTheJob() throws Exception {
        SparkConf conf = local("auto").set(SabaConf.ADDRESS, "127.0.0.1:" + deadPort());
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            assertEquals(LocalCluster.job(jsc, 5_000, 31).size(), 31);
            assertEquals(0, SabaDriver.current().tos(), "default class while the controller is away");
        }
    }

    @Test
    void neverFailsFastWithoutAController() throws IOException {
        SparkConf conf = local("never").set(SabaConf.ADDRESS, "127.0.0.1:" + deadPort())
                .set(SabaConf.FALLBACK, "NEVER").set(SabaConf.REGISTER_TIMEOUT, "20s");
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            Throwable e = assertThrows(Throwable.class, () -> LocalCluster.job(jsc, 1_000, 7));
            StringBuilder all = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                all.append(t).append(" | ");
            }
            assertTrue(all.toString().contains(SabaConf.FALLBACK + "=NEVER"), all.toString());
        }
    }

    private static SparkConf local(String name) {
        return LocalCluster.sabaOn(new SparkConf().setMaster("local[2]").setAppName(name)
                .set("spark.ui.enabled", "false")).set(SabaConf.CONTROLLER_TIMEOUT, "1s");
    }

    /** A loopback port nobody listens on. */
    private static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
