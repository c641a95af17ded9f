package io.saba.clustertests.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * A plain Spark application, submitted with and without Saba: per key, the record count and the summed value
 * length over {@code n} records in {@code keys} keys, through groupByKey (no map-side combining, so every record
 * crosses the shuffle). It writes its result to a file, so the driver may run anywhere on this machine (client or
 * cluster deploy mode).
 *
 * <p>With a gate directory it holds at two points for the test, after a warm-up stage (executors up) and after the
 * shuffle (its connections reported), by writing {@code ready} (its application id) and {@code done} and waiting
 * for {@code go} and {@code end}.
 *
 * <p>Arguments: {@code OUT N KEYS [GATES]}.
 */
public final class GroupCount {
    private GroupCount() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int keys = Integer.parseInt(args[2]);
        Path gates = args.length > 3 ? Path.of(args[3]) : null;
        try (JavaSparkContext sc = new JavaSparkContext(new SparkConf())) {
            sc.parallelize(List.of(1, 2, 3, 4), 4).count();
            pass(gates, "ready", sc.sc().applicationId(), "go");
            List<Integer> xs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                xs.add(i);
            }
            List<Tuple2<Integer, String>> result = new ArrayList<>(sc.parallelize(xs, 4)
                    .mapToPair(i -> new Tuple2<>(i % keys, "v" + i + "-".repeat(40)))
                    .groupByKey(4)
                    .mapValues(GroupCount::summary)
                    .collect());
            result.sort((a, b) -> Integer.compare(a._1(), b._1()));
            StringBuilder text = new StringBuilder();
            result.forEach(t -> text.append(t._1()).append(' ').append(t._2()).append('\n'));
            Files.writeString(out, text);
            pass(gates, "done", "", "end");
        }
    }

    private static String summary(Iterable<String> values) {
        long count = 0;
        long length = 0;
        for (String v : values) {
            count++;
            length += v.length();
        }
        return count + " " + length;
    }

    /** Writes {@code here} (with {@code content}) and waits, at most ten minutes, for the test to write {@code next}. */
    private static void pass(Path gates, String here, String content, String next)
            throws IOException, InterruptedException {
        if (gates == null) {
            return;
        }
        // written aside and renamed: the test polls for the gate and reads it as soon as it exists, and a file being
        // written exists empty first (the cluster-mode case read an empty application id that way)
        Path aside = Files.writeString(gates.resolve(here + ".writing"), content);
        Files.move(aside, gates.resolve(here), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (!Files.exists(gates.resolve(next)) && System.nanoTime() < end) {
            Thread.sleep(50);
        }
    }
}
