package org.apache.spark.shuffle.saba;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A second Spark application in its own JVM (one SparkContext per JVM), driven by files in a folder so that the
 * capture test can run it concurrently with its own: writes {@code ready} (its executors' block-transfer ports),
 * waits for {@code go}, runs the test job, writes {@code done}, waits for {@code stop}.
 *
 * <p>Arguments: folder, controller host:port, workload.
 */
public final class SecondApp {
    private SecondApp() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        try (JavaSparkContext jsc = new JavaSparkContext(
                LocalCluster.withSaba(LocalCluster.conf("second"), args[1], args[2]))) {
            Files.writeString(dir.resolve("appid"), jsc.sc().applicationId());
            String ports = executorPorts(jsc);
            Files.writeString(dir.resolve("ready"), ports);
            waitFor(dir.resolve("go"));
            Map<Integer, Long> r = LocalCluster.job(jsc, 60_000, 97);
            Files.writeString(dir.resolve("done"), Integer.toString(r.hashCode()));
            waitFor(dir.resolve("stop"));
        }
        System.exit(0);
    }

    /** Waits for both executors, then returns their block-transfer ports, comma-separated. */
    static String executorPorts(JavaSparkContext jsc) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (jsc.sc().getExecutorMemoryStatus().size() < 3 && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        int driverPort = jsc.sc().env().blockManager().blockManagerId().port();
        List<String> ports = new ArrayList<>();
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

    private static void waitFor(Path f) throws InterruptedException {
        while (!Files.exists(f)) {
            Thread.sleep(100);
        }
    }
}
