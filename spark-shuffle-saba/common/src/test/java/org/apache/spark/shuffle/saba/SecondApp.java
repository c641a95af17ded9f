package org.apache.spark.shuffle.saba;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A second Spark application in its own JVM (one SparkContext per JVM), driven by files in a folder so that the
 * capture test can run it concurrently with its own: writes {@code appid} and {@code ready} (its ports, see
 * {@link #applicationPorts}), then for each phase ({@code shuffle}, then {@code lr}) waits for {@code go-PHASE},
 * runs that job and writes {@code done-PHASE} (the result's hash); finally waits for {@code stop}.
 *
 * <p>Arguments: folder, controller host:port, workload.
 */
public final class SecondApp {
    static final int FEATURES = 4_000;
    static final int ITERATIONS = 6;

    private SecondApp() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (JavaSparkContext jsc = new JavaSparkContext(
                LocalCluster.withSaba(LocalCluster.conf("second"), args[1], args[2]))) {
            publish(dir, "appid", jsc.sc().applicationId());
            publish(dir, "ready", applicationPorts(jsc));
            waitFor(dir.resolve("go-shuffle"));
            publish(dir, "done-shuffle", Integer.toString(LocalCluster.job(jsc, 60_000, 97).hashCode()));
            waitFor(dir.resolve("go-lr"));
            List<Double> weights = IterativeJob.logisticRegression(jsc, FEATURES, ITERATIONS);
            publish(dir, "done-lr", Integer.toString(weights.hashCode()));
            waitFor(dir.resolve("stop"));
        }
        System.exit(0);
    }

    /**
     * Waits for both executors, then returns the ports through which every connection of the application passes,
     * comma-separated: the driver's RPC and block-transfer ports first, then each executor's block-transfer port
     * (executors open their RPC connections to the driver; they accept only on their block-transfer port).
     */
    static String applicationPorts(JavaSparkContext jsc) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (jsc.sc().getExecutorMemoryStatus().size() < 3 && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        int driverPort = jsc.sc().env().blockManager().blockManagerId().port();
        List<String> ports = new ArrayList<>();
        ports.add(Integer.toString(jsc.sc().env().rpcEnv().address().port()));
        ports.add(Integer.toString(driverPort));
        scala.collection.Iterator<String> it = jsc.sc().getExecutorMemoryStatus().keysIterator();
        while (it.hasNext()) {
            String hostPort = it.next();
            int port = Integer.parseInt(hostPort.substring(hostPort.lastIndexOf(':') + 1));
            if (port != driverPort) {
                ports.add(Integer.toString(port));
            }
        }
        return String.join(",", ports);
    }

    /**
     * Writes beside, then renames: the test polls for the file's existence and reads it at once, and
     * {@code Files.writeString} creates the file before it writes, so a reader could find it empty.
     */
    private static void publish(Path dir, String name, String content) throws IOException {
        Path part = dir.resolve(name + ".part");
        Files.writeString(part, content);
        Files.move(part, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
    }

    private static void waitFor(Path f) throws InterruptedException {
        while (!Files.exists(f)) {
            Thread.sleep(100);
        }
    }
}
