package io.saba.cli;

import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.topology.Topologies;
import io.saba.bench.ControllerOverheadBenchmark;
import io.saba.bench.ControllerOverheadBenchmark.Row;
import io.saba.bench.ControllerOverheadBenchmark.Settings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saba bench allocation}: the controller-overhead benchmark (paper Fig. 12); {@code saba bench
 * ib-enforcement}: the InfiniBand backend's event → table latency on ibsim.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks.",
        subcommands = {BenchCommand.Allocation.class, IbEnforcementCommand.class})
final class BenchCommand {
    /** The paper's p99 (seconds) for ≤ 250 and ≤ 1,000 applications, per degree k = 1, 2, 3 (§8.5). */
    private static final Map<Integer, double[]> PAPER_P99 = Map.of(250, new double[] {0.09, 0.16, 0.31},
            1000, new double[] {0.43, 0.72, 1.13});

    @Command(name = "allocation", mixinStandardHelpOptions = true,
            description = "Time to compute every port's weights on the 1,944-server spine-leaf (paper Fig. 12), "
                    + "beside a generic SQP optimiser.")
    static final class Allocation implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--table", defaultValue = "examples/sensitivity-table.json",
                description = "Sensitivity table whose samples are refitted at each degree (default ${DEFAULT-VALUE}).")
        Path table;

        @Option(names = "--apps", split = ",", defaultValue = "1,10,50,100,250,500,750,1000",
                description = "Active application counts (default ${DEFAULT-VALUE}).")
        List<Integer> apps;

        @Option(names = "--degrees", split = ",", defaultValue = "1,2,3", description = "Model degrees (default ${DEFAULT-VALUE}).")
        List<Integer> degrees;

        @Option(names = "--scenarios", defaultValue = "20", description = "Random scenarios per cell (default ${DEFAULT-VALUE}).")
        int scenarios;

        @Option(names = "--sqp-ports", defaultValue = "20",
                description = "Ports per scenario also solved by the SQP baseline (default ${DEFAULT-VALUE}).")
        int sqpPorts;

        @Option(names = "--sqp-max-apps", defaultValue = "250",
                description = "Largest application count the SQP baseline runs on; its cost grows with the cube of a port's applications (default ${DEFAULT-VALUE}).")
        int sqpMaxApps;

        @Option(names = "--threads", defaultValue = "1",
                description = "Threads planning ports in parallel; ports are independent (default ${DEFAULT-VALUE}).")
        int threads;

        @Option(names = "--seed", defaultValue = "1", description = "Random seed (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--warmup", defaultValue = "10",
                description = "Untimed scenarios per degree before any cell, so the JIT has compiled the solver (default ${DEFAULT-VALUE}).")
        int warmup;

        @Option(names = "--events", defaultValue = "10",
                description = "Applications arriving, and as many leaving, after each scenario's full allocation (default ${DEFAULT-VALUE}).")
        int events;

        @Option(names = "--baseline",
                description = "The printed output of an earlier run (e.g. of another commit) to show beside this one, cell by cell.")
        Path baseline;

        @Override
        public Integer call() throws IOException {
            Settings settings = new Settings(apps, degrees, scenarios, sqpPorts, sqpMaxApps, threads, seed, warmup,
                    events); // the counts first: refused before any file is read
            SensitivityTable t = SensitivityTableCodec.parse(Files.readString(table), table.toString());
            var bench = new ControllerOverheadBenchmark(Topologies.spineLeaf(), t, System.err);
            Map<String, double[]> before = baseline == null ? Map.of() : AllocationReport.parseBaseline(baseline);
            List<Row> rows = bench.run(settings);
            PrintWriter o = spec.commandLine().getOut();
            o.printf("Controller overhead on the 1,944-server spine-leaf, %d instances per application, %d thread(s), "
                    + "%d scenarios per cell after %d warm-up scenario(s) per degree and one per cell%n",
                    ControllerOverheadBenchmark.INSTANCES, threads, scenarios, warmup);
            o.printf("%5s %2s %5s %7s %9s %9s %11s %11s | %10s %11s | %6s %7s %12s %12s %12s%n", "apps", "k", "runs", "ports",
                    "p50 ms", "p99 ms", "p99 cpu ms", "paper p99", "paths ms", "per-app ms", "sqp n", "failed", "SQP/ours t", "obj ours/SQP", "worst");
            for (Row r : rows) {
                o.printf("%5d %2d %5d %7.0f %9.2f %9.2f %11s %11s | %10.0f %11.0f | %6d %7d %12s %12s %12s%n", r.apps(), r.degree(),
                        r.scenarios(), r.meanPorts(), r.p50Ms(), r.p99Ms(), fmt(r.p99CpuMs(), "%.2f"), paper(r), r.pathP50Ms(), r.perAppMs(), r.sqpPorts(), r.sqpFailures(),
                        fmt(r.sqpTimeRatio(), "%.0fx"), fmt(r.objectiveRatioMean(), "%.6f"), fmt(r.objectiveRatioMax(), "%.6f"));
            }
            o.println("p50/p99: level assignment + hierarchy + Eq. 2 and queue mapping at every port in use (wall time);");
            o.println("p99 cpu: the same, CPU time of the thread (excludes waiting for a core on a shared machine).");
            o.println("paths: placing instances, resolving all connections to per-port state (maintained incrementally by the controller).");
            o.println("per-app ms: one scenario again with a per-application weight map at every port (Allocator.allocatePort).");
            o.println("SQP: Hipparchus SQPOptimizerS on sampled ports of the same scenarios; obj ratio < 1 means ours is better;");
            o.println("     failed = ports where SQP stopped without converging (excluded from the ratios).");
            AllocationReport.medians(o, rows);
            AllocationReport.events(o, rows);
            if (baseline != null) {
                AllocationReport.beside(o, rows, before, baseline.toString(), (apps, k) -> paper(apps, k));
            }
            o.flush();
            return 0;
        }

        private static String paper(Row r) {
            double ms = paper(r.apps(), r.degree());
            return Double.isNaN(ms) ? "-" : String.format("%.0f ms", ms);
        }

        /** The paper's p99 in ms for this cell, NaN where it gives none. */
        private static double paper(int apps, int k) {
            double[] p = apps <= 250 ? PAPER_P99.get(250) : PAPER_P99.get(1000);
            return k >= 1 && k <= 3 ? 1000 * p[k - 1] : Double.NaN;
        }

        private static String fmt(double v, String f) {
            return Double.isNaN(v) ? "-" : String.format(f, v);
        }
    }
}
