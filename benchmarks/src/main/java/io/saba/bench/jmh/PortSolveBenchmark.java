package io.saba.bench.jmh;

import io.saba.core.model.ModelFitter;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.GroupSolution;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Eq. 2 on one port ({@link MinSlowdownSolver#solveGroups}), the unit the controller repeats at every port whose
 * applications changed: {@code apps} applications drawn at random (fixed seed) from the example table's workloads,
 * refitted at degree {@code k}, so a port of 100 applications has all 10 workloads as groups.
 *
 * <ul>
 *   <li>{@link #cold}: solved from nothing, as after a change of levels;</li>
 *   <li>{@link #warm}: started from the multiplier of the same port before its last application arrived, as the
 *       controller recomputes a port when one application arrives.</li>
 * </ul>
 *
 * Run with {@code -prof gc} to see the bytes allocated per solve ({@code gc.alloc.rate.norm}), which does not
 * depend on how loaded the machine is. Commands: benchmarks/README.md.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PortSolveBenchmark {
    @Param({"2", "10", "100"})
    public int apps;

    @Param({"1", "2", "3"})
    public int k;

    /** The table whose samples are refitted; relative to the working directory (the checkout). */
    @Param("examples/sensitivity-table.json")
    public String table;

    private final MinSlowdownSolver solver = new MinSlowdownSolver();
    private List<SensitivityModel> models;
    private int[] counts;
    /** The same port before its last application arrived. */
    private List<SensitivityModel> beforeModels;
    private int[] beforeCounts;

    @Setup
    public void setUp() throws IOException {
        Path path = Path.of(table);
        SensitivityTable t = SensitivityTableCodec.parse(Files.readString(path), path.toString());
        List<SensitivityModel> workloads = new ArrayList<>();
        for (TableEntry e : t.entries().values()) {
            workloads.add(e.samples().size() > k ? ModelFitter.fit(e.samples(), k).model() : e.model());
        }
        Random rnd = new Random(19L * apps + k);
        int[] perWorkload = new int[workloads.size()];
        int last = -1;
        for (int a = 0; a < apps; a++) {
            last = rnd.nextInt(workloads.size());
            perWorkload[last]++;
        }
        models = new ArrayList<>();
        List<Integer> c = new ArrayList<>();
        for (int w = 0; w < perWorkload.length; w++) {
            if (perWorkload[w] > 0) {
                models.add(workloads.get(w));
                c.add(perWorkload[w]);
            }
        }
        counts = c.stream().mapToInt(Integer::intValue).toArray();
        // the same port before the last application arrived: its multiplier is where the warm solve starts
        perWorkload[last]--;
        beforeModels = new ArrayList<>();
        List<Integer> before = new ArrayList<>();
        for (int w = 0; w < perWorkload.length; w++) {
            if (perWorkload[w] > 0) {
                beforeModels.add(workloads.get(w));
                before.add(perWorkload[w]);
            }
        }
        beforeCounts = before.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The multiplier of the port before its last application arrived. A state of its own, so that {@link #cold}
     * also runs against solvers from before the multiplier existed (another commit's saba-core first on the class
     * path).
     */
    @State(Scope.Benchmark)
    public static class Previous {
        double lambda;

        @Setup
        public void setUp(PortSolveBenchmark port) {
            lambda = port.beforeCounts.length == 0 || (port.beforeCounts.length == 1 && port.beforeCounts[0] == 1)
                    ? Double.NaN : port.solver.solveGroups(port.beforeModels, port.beforeCounts, 1.0).lambda();
        }
    }

    @Benchmark
    public GroupSolution cold() {
        return solver.solveGroups(models, counts, 1.0);
    }

    @Benchmark
    public GroupSolution warm(Previous previous) {
        return solver.solveGroups(models, counts, 1.0, previous.lambda);
    }
}
