package io.saba.workloads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import scala.Tuple2;

/** WordCount, Sort (TeraSort-style) and the inverted index that stands in for NutchIndexing. */
final class MicroWorkloads {
    private MicroWorkloads() {
    }

    static JavaSparkContext jsc(SparkSession spark) {
        return JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    /** A line of about {@code words} words from a Zipf-skewed vocabulary of {@code vocabulary} words. */
    static String line(SplittableRandom rnd, int words, int vocabulary) {
        StringBuilder b = new StringBuilder(words * 7);
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                b.append(' ');
            }
            b.append('w').append(Gen.zipf(rnd, vocabulary));
        }
        return b.toString();
    }

    /** Word counts with map-side combining: the shuffle is one record per distinct word per partition. */
    static final class WordCount implements Workload {
        private JavaRDD<String> lines;

        public String key() {
            return "wordcount";
        }

        public String reportType() {
            return "SabaSparkWordcount";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(2_000, 1_000_000, 3_000_000_000L);
            lines = Gen.materialise(Gen.records(jsc(spark), n, s.partitions(), 31, (i, rnd) -> line(rnd, 14, 20_000)));
            return lines.mapToDouble(l -> l.length() + 1).sum().longValue();
        }

        public String run(SparkSession spark) {
            JavaPairRDD<String, Long> counts = lines.flatMap(l -> Arrays.asList(l.split(" ")).iterator())
                    .mapToPair(w -> new Tuple2<>(w, 1L)).reduceByKey(Long::sum, lines.getNumPartitions());
            long distinct = counts.count();
            long total = counts.values().fold(0L, Long::sum);
            return "distinct=" + distinct + " words=" + total;
        }

        public void cleanup() {
            lines.unpersist();
        }
    }

    /**
     * TeraSort-style: 100-byte records (a 10-character random key, a 90-character value: row id and random
     * characters), range-partitioned and sorted by key; every record crosses the shuffle. The check walks each partition and the partition boundaries.
     */
    static final class Sort implements Workload {
        static final String ALPHABET = "!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghij"
                + "klmnopqrstuvwxyz{|}~ ";
        private JavaPairRDD<String, String> records;

        public String key() {
            return "sort";
        }

        public String reportType() {
            return "SabaSparkTerasort";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(20_000, 600_000, 2_800_000_000L);
            records = Gen.materialise(Gen.records(jsc(spark), n, s.partitions(), 41, (i, rnd) -> {
                char[] k = new char[10];
                for (int c = 0; c < k.length; c++) {
                    k[c] = ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
                }
                // the row id, as TeraGen's value carries it, then random characters: TeraGen's filler pattern
                // compresses about 5x under the shuffle's LZ4, which would leave the 2-core testbed CPU-bound
                StringBuilder v = new StringBuilder(90).append(String.format("%032x", i));
                while (v.length() < 90) {
                    v.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
                }
                return new Tuple2<>(new String(k), v.toString());
            })).mapToPair(t -> t);
            return n * 100;
        }

        public String run(SparkSession spark) {
            JavaPairRDD<String, String> sorted = records.sortByKey(true, records.getNumPartitions());
            // per partition: count, first and last key, whether it is in order
            List<String[]> parts = sorted.mapPartitions(it -> {
                long count = 0;
                String first = null;
                String last = null;
                boolean ordered = true;
                while (it.hasNext()) {
                    String k = it.next()._1();
                    if (last != null && k.compareTo(last) < 0) {
                        ordered = false;
                    }
                    if (first == null) {
                        first = k;
                    }
                    last = k;
                    count++;
                }
                List<String[]> out = new ArrayList<>();
                out.add(new String[] {Long.toString(count), first, last, Boolean.toString(ordered)});
                return out.iterator();
            }).collect();
            long total = 0;
            String previous = null;
            boolean ordered = true;
            for (String[] p : parts) {
                total += Long.parseLong(p[0]);
                ordered &= Boolean.parseBoolean(p[3]);
                if (p[1] != null) {
                    ordered &= previous == null || previous.compareTo(p[1]) <= 0;
                    previous = p[2];
                }
            }
            return "records=" + total + " sorted=" + ordered;
        }

        public void cleanup() {
            records.unpersist();
        }
    }

    /**
     * Inverted index (the paper's NutchIndexing runs on Hadoop only in HiBench): generated documents, term →
     * sorted list of the documents holding it. The (term, document) pairs are the shuffle.
     */
    static final class InvertedIndex implements Workload {
        private JavaPairRDD<Long, String> docs;

        public String key() {
            return "nutchindexing";
        }

        public String reportType() {
            return "SabaSparkInvertedIndex";
        }

        public long prepare(SparkSession spark, Size s) {
            long n = s.count(1_000, 60_000, 100_000_000);
            docs = Gen.materialise(Gen.records(jsc(spark), n, s.partitions(), 51,
                    (i, rnd) -> new Tuple2<>(i, line(rnd, 60, 50_000)))).mapToPair(t -> t);
            return docs.values().mapToDouble(d -> d.length() + 9).sum().longValue();
        }

        public String run(SparkSession spark) {
            JavaPairRDD<String, long[]> index = docs
                    .flatMapToPair(d -> Arrays.stream(d._2().split(" ")).distinct()
                            .map(t -> new Tuple2<>(t, d._1())).iterator())
                    .groupByKey(docs.getNumPartitions())
                    .mapValues(ds -> {
                        List<Long> l = new ArrayList<>();
                        ds.forEach(l::add);
                        return l.stream().mapToLong(Long::longValue).sorted().toArray();
                    });
            long terms = index.count();
            long postings = index.values().map(a -> (long) a.length).fold(0L, Long::sum);
            return "terms=" + terms + " postings=" + postings;
        }

        public void cleanup() {
            docs.unpersist();
        }
    }
}
