package io.saba.clustertests;

import io.saba.process.PacketCapture;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every real-cluster test class does around its cases: skip, saying why, where no capture can run; start a
 * standalone controller before the engine's cluster ({@link #startCluster}, the subclass's {@code @BeforeAll}); and
 * stop every process it started, the cluster's and the controller's, after the last case or after a failure.
 */
public abstract class RealClusterTest {
    @TempDir
    protected static Path dir;
    protected static String unavailable;
    protected static Daemons daemons;
    protected static StandaloneController controller;

    /** An engine's cluster start, given the controller's address. */
    @FunctionalInterface
    protected interface ClusterStart {
        void start(String controllerAddress) throws Exception;
    }

    @BeforeAll
    static void startController() throws Exception {
        unavailable = PacketCapture.unavailable();
        if (unavailable == null) {
            daemons = new Daemons(dir.resolve("logs"));
            try {
                controller = StandaloneController.start(daemons, dir.resolve("controller"));
            } catch (Exception | AssertionError e) {
                throw new IllegalStateException("the controller did not start\n" + daemons.tails(), e);
            }
        }
    }

    /** Starts the engine's cluster unless the class skips; a failure carries every process's last log lines. */
    protected static void startCluster(String what, ClusterStart start) {
        if (unavailable != null) {
            System.out.println(what + " skipped: " + unavailable);
            return;
        }
        long t0 = System.nanoTime();
        try {
            start.start(controller.address());
        } catch (Exception | AssertionError e) {
            throw new IllegalStateException(what + " did not start\n" + daemons.tails(), e);
        }
        System.out.printf("%s up in %d ms%n", what, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    @AfterAll
    static void stopAll() {
        if (daemons != null) {
            daemons.close();
        }
    }

    @BeforeEach
    void needsCapture() {
        Assumptions.assumeTrue(unavailable == null, "skipped: " + unavailable);
    }
}
