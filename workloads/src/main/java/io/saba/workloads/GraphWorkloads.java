package io.saba.workloads;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.graphx.Edge;
import org.apache.spark.graphx.EdgeContext;
import org.apache.spark.graphx.Graph;
import org.apache.spark.graphx.TripletFields;
import org.apache.spark.graphx.VertexRDD;
import org.apache.spark.graphx.lib.PageRank;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import scala.runtime.BoxedUnit;

/** PageRank and NWeight on GraphX, over generated graphs whose in-degrees are skewed as web links are. */
final class GraphWorkloads {
    private GraphWorkloads() {
    }

    /** Each vertex links to about {@code degree} others (1..2·degree), targets Zipf-skewed; weights in (0, 1]. */
    static JavaRDD<Edge<Double>> edges(SparkSession spark, long vertices, int degree, int partitions, long seed) {
        JavaRDD<List<Edge<Double>>> perVertex = Gen.records(JavaSparkContext.fromSparkContext(spark.sparkContext()),
                vertices, partitions, seed, (i, rnd) -> {
                    int out = 1 + rnd.nextInt(2 * degree);
                    List<Edge<Double>> es = new ArrayList<>(out);
                    for (int k = 0; k < out; k++) {
                        // a Zipf rank scattered over the id space, so popular pages are spread out
                        long rank = Gen.zipf(rnd, (int) Math.min(Integer.MAX_VALUE - 1, vertices));
                        long dst = Math.floorMod(Gen.mix(seed, rank), vertices);
                        if (dst != i) {
                            es.add(new Edge<>(i, dst, 0.05 + 0.95 * rnd.nextDouble()));
                        }
                    }
                    return es;
                });
        return perVertex.flatMap(List::iterator);
    }

    static Graph<Double, Double> graph(JavaRDD<Edge<Double>> edges) {
        Graph<Double, Double> g = Graph.fromEdges(edges.rdd(), 1.0, StorageLevel.MEMORY_AND_DISK(),
                StorageLevel.MEMORY_AND_DISK(), Scala.tag(Double.class), Scala.tag(Double.class));
        g.edges().count();
        return g;
    }

    /** GraphX's static PageRank (HiBench PageRank: 50M pages in the paper). */
    static final class PageRankWorkload implements Workload {
        private Graph<Double, Double> graph;
        private int iterations;

        public String key() {
            return "pagerank";
        }

        public String reportType() {
            return "SabaSparkPagerank";
        }

        public long prepare(SparkSession spark, Size s) {
            long pages = s.count(2_000, 200_000, 50_000_000);
            int degree = s.pick(5, 8, 10);
            iterations = s.pick(3, 5, 3);
            graph = graph(edges(spark, pages, degree, s.partitions(), 21));
            // HiBench counts its text edge list: about 2 x 8 digits + separators per edge
            return graph.edges().count() * 20;
        }

        public String run(SparkSession spark) {
            Graph<Object, Object> ranks = PageRank.run(graph, iterations, 0.15, Scala.tag(Double.class),
                    Scala.tag(Double.class));
            double total = ranks.vertices().toJavaRDD().mapToDouble(t -> (Double) t._2()).sum();
            long n = ranks.vertices().count();
            ranks.unpersist(false);
            return String.format("vertices=%d rank-sum=%.1f", n, total);
        }

        public void cleanup() {
            graph.unpersist(false);
        }
    }

    /**
     * NWeight (HiBench's GraphX workload): for every vertex, the {@code topK} vertices it reaches within
     * {@code hops} hops, weighted by the sum over paths of the product of edge weights. Each hop sends every
     * vertex's current map to its in-neighbours (aggregateMessages), scaled by the edge weight; the maps are the
     * shuffle (HiBench NWeight: 4,250M edges in the paper).
     */
    static final class NWeight implements Workload {
        private Graph<Double, Double> graph;
        private int hops;
        private int topK;

        public String key() {
            return "nweight";
        }

        public String reportType() {
            return "SabaSparkNWeight";
        }

        public long prepare(SparkSession spark, Size s) {
            long vertices = s.count(1_000, 40_000, 425_000_000);
            int degree = s.pick(4, 6, 10);
            hops = s.pick(2, 3, 3);
            topK = s.pick(5, 20, 30);
            graph = graph(edges(spark, vertices, degree, s.partitions(), 22));
            return graph.edges().count() * 24;
        }

        public String run(SparkSession spark) {
            int k = topK;
            // hop 1: each vertex's own out-edges
            Graph<HashMap<Long, Double>, Double> g = graph.mapVertices(
                    Scala.fn((Object id, Double v) -> new HashMap<Long, Double>()), Scala.tag(mapClass()), null);
            for (int hop = 1; hop <= hops; hop++) {
                boolean first = hop == 1;
                VertexRDD<HashMap<Long, Double>> msgs = g.aggregateMessages(
                        Scala.fn((EdgeContext<HashMap<Long, Double>, Double, HashMap<Long, Double>> ctx) -> {
                            HashMap<Long, Double> m = new HashMap<>();
                            if (first) {
                                m.put(ctx.dstId(), ctx.attr());
                            } else {
                                for (Map.Entry<Long, Double> e : ctx.dstAttr().entrySet()) {
                                    if (e.getKey() != ctx.srcId()) {
                                        m.put(e.getKey(), e.getValue() * ctx.attr());
                                    }
                                }
                            }
                            if (!m.isEmpty()) {
                                ctx.sendToSrc(m);
                            }
                            return BoxedUnit.UNIT;
                        }),
                        Scala.fn((HashMap<Long, Double> a, HashMap<Long, Double> b) -> top(merge(a, b), k)),
                        first ? TripletFields.EdgeOnly : TripletFields.Dst, Scala.tag(mapClass()));
                Graph<HashMap<Long, Double>, Double> next = g.outerJoinVertices(msgs,
                        Scala.fn((Object id, HashMap<Long, Double> old, scala.Option<HashMap<Long, Double>> m) ->
                                m.isDefined() ? m.get() : new HashMap<Long, Double>()),
                        Scala.tag(mapClass()), Scala.tag(mapClass()), null);
                next.vertices().count();
                g = next;
            }
            long pairs = g.vertices().toJavaRDD().map(t -> (long) t._2().size()).fold(0L, Long::sum);
            return "pairs=" + pairs;
        }

        public void cleanup() {
            graph.unpersist(false);
        }

        @SuppressWarnings("unchecked")
        private static Class<HashMap<Long, Double>> mapClass() {
            return (Class<HashMap<Long, Double>>) (Class<?>) HashMap.class;
        }

        static HashMap<Long, Double> merge(HashMap<Long, Double> a, HashMap<Long, Double> b) {
            HashMap<Long, Double> m = new HashMap<>(a);
            b.forEach((key, v) -> m.merge(key, v, Double::sum));
            return m;
        }

        /** Keeps the k heaviest entries; ties broken by vertex id so the result is deterministic. */
        static HashMap<Long, Double> top(HashMap<Long, Double> m, int k) {
            if (m.size() <= k) {
                return m;
            }
            List<Map.Entry<Long, Double>> es = new ArrayList<>(m.entrySet());
            es.sort((x, y) -> {
                int c = Double.compare(y.getValue(), x.getValue());
                return c != 0 ? c : Long.compare(x.getKey(), y.getKey());
            });
            HashMap<Long, Double> out = new HashMap<>();
            for (Map.Entry<Long, Double> e : es.subList(0, k)) {
                out.put(e.getKey(), e.getValue());
            }
            return out;
        }
    }
}
