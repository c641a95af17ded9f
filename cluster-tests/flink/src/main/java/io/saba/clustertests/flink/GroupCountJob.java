package io.saba.clustertests.flink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * A plain Flink batch job, run on the session cluster with Saba and on its own without: per key, the record count
 * and the summed value length over {@code n} records in {@code keys} keys. Each record crosses the shuffle with its
 * value (about 45 bytes); the reduce drops the values. The client collects the result and writes it to a file.
 *
 * <p>With a gate file, every source subtask waits for it before it emits, so the test can look at the running job
 * before its data moves.
 *
 * <p>Arguments: {@code OUT N KEYS [GATE]}.
 */
public final class GroupCountJob {
    private static final int REDUCERS = 2;

    private GroupCountJob() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        long n = Long.parseLong(args[1]);
        int keys = Integer.parseInt(args[2]);
        String gate = args.length > 3 ? args[3] : null;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        List<String> lines = new ArrayList<>();
        try (CloseableIterator<String> result = env.fromSequence(0, n - 1)
                .map(new Record(keys, gate))
                .returns(Types.TUPLE(Types.INT, Types.LONG, Types.LONG, Types.STRING))
                .keyBy(t -> t.f0)
                .reduce((a, b) -> Tuple4.of(a.f0, a.f1 + b.f1, a.f2 + b.f2, ""))
                // two reducers, one per TaskManager, so that half of every source's data crosses between them: left
                // to itself, Flink's adaptive batch scheduler runs one reducer for this little data, and a source
                // that took every split on a cold start could share its TaskManager
                .setParallelism(REDUCERS)
                .map(t -> t.f0 + " " + t.f1 + " " + t.f2)
                .executeAndCollect("group count")) {
            result.forEachRemaining(lines::add);
        }
        Collections.sort(lines, (a, b) -> Integer.compare(key(a), key(b)));
        Files.writeString(out, String.join("\n", lines) + "\n");
    }

    private static int key(String line) {
        return Integer.parseInt(line.substring(0, line.indexOf(' ')));
    }

    /** i → (key, 1, value length, value), after waiting for the gate when there is one. */
    private static final class Record extends RichMapFunction<Long, Tuple4<Integer, Long, Long, String>> {
        private static final long serialVersionUID = 1L;
        private final int keys;
        private final String gate;

        Record(int keys, String gate) {
            this.keys = keys;
            this.gate = gate;
        }

        @Override
        public void open(OpenContext context) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (gate != null && !Files.exists(Path.of(gate)) && System.nanoTime() < end) {
                Thread.sleep(50);
            }
        }

        @Override
        public Tuple4<Integer, Long, Long, String> map(Long i) {
            String value = "v" + i + "-".repeat(40);
            return Tuple4.of((int) (i % keys), 1L, (long) value.length(), value);
        }
    }
}
