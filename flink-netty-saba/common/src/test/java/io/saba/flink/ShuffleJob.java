package io.saba.flink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * A batch job whose only work is an all-to-all shuffle: numbers 0..n-1 keyed by i mod keys, summed per key. Its
 * result is two accumulators that any correct run reproduces exactly ({@link #expected}). A job built with a gate
 * waits in its first operator until the test opens the gate, so a test can look at a running job: the gate is a latch
 * shared with the test ({@link #arm}), since a MiniCluster runs the tasks in the test's JVM. (Jobs on real session
 * clusters, submitted with {@code flink run}, are cluster-tests'.)
 */
public final class ShuffleJob {
    static final String KEYS = "keys";
    static final String CHECKSUM = "checksum";

    /** Gates shared with the tasks: MiniCluster runs them in the test's JVM and class loader. */
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> STARTED = new ConcurrentHashMap<>();

    private ShuffleJob() {
    }

    /**
     * @param payload  bytes carried by every record (0 for a light job; the benchmark makes it heavy)
     * @param workload the job's own saba.workload, or null
     * @param gate     a gate name, or null to run straight through
     */
    static JobGraph build(String name, long n, int keys, int parallelism, int payload, String workload,
                          String gate) {
        return graph(name, workload, env -> pipeline(env, n, keys, parallelism, payload, gate));
    }

    /**
     * The same job with its gate after the shuffle, in a third vertex behind a rebalance: while the third vertex's
     * subtasks wait at the gate, the shuffle's producers (vertex 1) and consumers (vertex 2) have ended. Same result.
     */
    static JobGraph buildHeldAfterShuffle(String name, long n, int keys, int parallelism, int payload,
                                          String workload, String gate) {
        return graph(name, workload, env -> {
            env.setParallelism(parallelism);
            shuffled(env, n, keys, payload, null)
                    .rebalance()
                    .map(new Gate(gate, keys, 0))
                    .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.PRIMITIVE_ARRAY(Types.BYTE)))
                    .setParallelism(parallelism)
                    .sinkTo(new DiscardingSink<>())
                    .setParallelism(parallelism);
        });
    }

    private static JobGraph graph(String name, String workload,
                                  java.util.function.Consumer<StreamExecutionEnvironment> pipeline) {
        Configuration jc = new Configuration();
        jc.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        if (workload != null) {
            jc.set(SabaOptions.WORKLOAD, workload);
        }
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(jc);
        pipeline.accept(env);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName(name);
        return graph.getJobGraph();
    }

    private static void pipeline(StreamExecutionEnvironment env, long n, int keys, int parallelism, int payload,
                                 String gate) {
        env.setParallelism(parallelism);
        shuffled(env, n, keys, payload, gate).sinkTo(new DiscardingSink<>());
    }

    /**
     * Numbers keyed, shuffled, summed per key and added to the accumulators; the gate is before the shuffle. The
     * reducers' parallelism is set (the environment's), since Flink's adaptive batch scheduler would otherwise size
     * them to the data.
     */
    private static DataStream<Long> shuffled(StreamExecutionEnvironment env, long n, int keys, int payload,
                                             String gate) {
        return env.fromSequence(0, n - 1)
                .map(new Gate(gate, keys, payload))
                .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.PRIMITIVE_ARRAY(Types.BYTE)))
                .keyBy(t -> t.f0)
                .reduce((a, b) -> Tuple3.of(a.f0, a.f1 + b.f1, a.f2))
                .setParallelism(env.getParallelism())
                .map(new Checksum())
                .setParallelism(env.getParallelism());
    }

    /** Arms a gate for {@code subtasks} subtasks; returns the latch counting subtasks that reached it. */
    static CountDownLatch arm(String gate, int subtasks) {
        GATES.put(gate, new CountDownLatch(1));
        CountDownLatch started = new CountDownLatch(subtasks);
        STARTED.put(gate, started);
        return started;
    }

    static void open(String gate) {
        GATES.get(gate).countDown();
    }

    /** {keys seen, checksum} of a correct run. */
    static long[] expected(long n, int keys) {
        long[] sums = new long[keys];
        for (long i = 0; i < n; i++) {
            sums[(int) (i % keys)] += i;
        }
        long checksum = 0;
        for (int k = 0; k < keys; k++) {
            checksum += (k + 1L) * sums[k];
        }
        return new long[] {Math.min(n, keys), checksum};
    }

    /** Identity plus key and payload; waits at its gate (if any) before the first record. */
    static final class Gate extends RichMapFunction<Long, Tuple3<Long, Long, byte[]>> {
        private final String gate;
        private final int keys;
        private final int payload;

        Gate(String gate, int keys, int payload) {
            this.gate = gate;
            this.keys = keys;
            this.payload = payload;
        }

        @Override
        public void open(OpenContext context) throws Exception {
            if (gate != null) {
                STARTED.get(gate).countDown();
                if (!GATES.get(gate).await(5, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("gate " + gate + " never opened");
                }
            }
        }

        @Override
        public Tuple3<Long, Long, byte[]> map(Long i) {
            // incompressible bytes: Flink compresses batch shuffle data, and zeros would hide the volume
            byte[] bytes = new byte[payload];
            long x = i * 0x9E3779B97F4A7C15L + 1;
            for (int b = 0; b < payload; b++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                bytes[b] = (byte) x;
            }
            return Tuple3.of(i % keys, i, bytes);
        }
    }

    /** Adds each key's result to the job's accumulators. */
    static final class Checksum extends RichMapFunction<Tuple3<Long, Long, byte[]>, Long> {
        private final LongCounter keys = new LongCounter();
        private final LongCounter checksum = new LongCounter();

        @Override
        public void open(OpenContext context) {
            getRuntimeContext().addAccumulator(KEYS, keys);
            getRuntimeContext().addAccumulator(CHECKSUM, checksum);
        }

        @Override
        public Long map(Tuple3<Long, Long, byte[]> t) {
            keys.add(1L);
            checksum.add((t.f0 + 1) * t.f1);
            return t.f0;
        }
    }
}
