package io.saba.flink;

import io.saba.controller.server.EmbeddedController;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.runtime.minicluster.MiniCluster;

/**
 * Benchmark, not a test: the same shuffle-heavy batch job on a MiniCluster with Flink's Netty shuffle and on one
 * with Saba's factory (against a real controller on loopback), alternated, A-B then B-A, after a warm-up of each.
 * Prints every job time, the medians and the ratio Saba / Netty.
 *
 * <p>Run (from the repository root): {@code mvn -B -ntp -pl flink-netty-saba/flink-1.20 -am verify
 * -Dtest=ShuffleBenchmarkRunner -Dsurefire.failIfNoSpecifiedTests=false -Dsaba.bench=true
 * [-Dsaba.bench.rounds=5 -Dsaba.bench.records=1000000 -Dsaba.bench.payload=64]}; the report is in
 * {@code flink-netty-saba/flink-1.20/target/surefire-reports/io.saba.flink.ShuffleBenchmarkRunner-output.txt}.
 */
public final class ShuffleBenchmark {
    private ShuffleBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.getInteger("saba.bench.rounds", 5);
        long records = Long.getLong("saba.bench.records", 1_000_000L);
        int payload = Integer.getInteger("saba.bench.payload", 64);
        int parallelism = 4;
        int keys = 1009;
        System.out.printf(Locale.ROOT, "shuffle benchmark: %d records x %d-byte payload, parallelism %d over 2 "
                + "TaskManagers, %d rounds%n", records, payload, parallelism, rounds);
        try (EmbeddedController controller = Controllers.start();
             MiniCluster netty = Clusters.netty();
             MiniCluster saba = Clusters.saba(Map.of(SabaOptions.CONTROLLER_ADDRESS.key(), controller.target()))) {
            time(netty, "warm-up", records, keys, parallelism, payload);
            time(saba, "warm-up", records, keys, parallelism, payload);
            List<Double> n = new ArrayList<>();
            List<Double> s = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                if (r % 2 == 0) {
                    n.add(time(netty, "netty #" + r, records, keys, parallelism, payload));
                    s.add(time(saba, "saba  #" + r, records, keys, parallelism, payload));
                } else {
                    s.add(time(saba, "saba  #" + r, records, keys, parallelism, payload));
                    n.add(time(netty, "netty #" + r, records, keys, parallelism, payload));
                }
            }
            double mn = median(n);
            double ms = median(s);
            System.out.printf(Locale.ROOT, "median netty %.3f s, median saba %.3f s, ratio saba/netty %.3f "
                    + "(means %.3f / %.3f = %.3f)%n", mn, ms, ms / mn, mean(n), mean(s), mean(s) / mean(n));
        }
    }

    private static double time(MiniCluster m, String label, long records, int keys, int parallelism, int payload)
            throws Exception {
        long t0 = System.nanoTime();
        Map<String, Object> acc = Clusters.run(m, ShuffleJob.build(label, records, keys, parallelism, payload,
                "lr", null));
        double s = (System.nanoTime() - t0) / 1e9;
        if (!Long.valueOf(keys).equals(acc.get(ShuffleJob.KEYS))) {
            throw new AssertionError(label + ": wrong result " + acc);
        }
        System.out.printf(Locale.ROOT, "%-8s %.3f s%n", label, s);
        return s;
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private static double mean(List<Double> xs) {
        return Arrays.stream(xs.stream().mapToDouble(Double::doubleValue).toArray()).average().orElse(Double.NaN);
    }
}
