package io.saba.workloads;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;

/**
 * Deterministic data generation on the executors: partition p of a dataset of n records holds records
 * [p·n/P, (p+1)·n/P) and record i draws from its own random stream seeded by (seed, i), so the data does not
 * depend on scheduling, retries or the number of executors.
 */
public final class Gen {
    private Gen() {
    }

    /** Produces record {@code index} from its random stream. */
    @FunctionalInterface
    public interface Record<T> extends Serializable {
        T make(long index, SplittableRandom rnd);
    }

    public static <T> JavaRDD<T> records(JavaSparkContext jsc, long n, int partitions, long seed, Record<T> record) {
        List<Integer> parts = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            parts.add(p);
        }
        return jsc.parallelize(parts, partitions).flatMap(p -> {
            long from = n * p / partitions;
            long to = n * (p + 1) / partitions;
            List<T> out = new ArrayList<>((int) (to - from));
            for (long i = from; i < to; i++) {
                out.add(record.make(i, new SplittableRandom(mix(seed, i))));
            }
            return out.iterator();
        });
    }

    /** Caches and counts, so the generation cost stays out of the timed run. */
    public static <T> JavaRDD<T> materialise(JavaRDD<T> rdd) {
        JavaRDD<T> c = rdd.persist(StorageLevel.MEMORY_AND_DISK());
        c.count();
        return c;
    }

    /** SplitMix64 of the pair: neighbouring records get unrelated streams. */
    public static long mix(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A Zipf-like rank in [0, n): small ranks are frequent, as words and URLs are. */
    public static int zipf(SplittableRandom rnd, int n) {
        double u = rnd.nextDouble();
        return (int) Math.min(n - 1, Math.floor(Math.pow(n + 1.0, u) - 1));
    }
}
