package io.saba.cli;

import io.saba.bench.ControllerOverheadBenchmark.EventCost;
import io.saba.bench.ControllerOverheadBenchmark.Row;
import io.saba.bench.ControllerOverheadBenchmark.Spread;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The tables {@code saba bench allocation} prints after its main one: medians of CPU time with their intervals,
 * the incremental rows (one application arriving or leaving), and an earlier run beside this one.
 */
final class AllocationReport {
    private AllocationReport() {
    }

    static void medians(PrintWriter o, List<Row> rows) {
        o.println();
        o.println("Full allocation, CPU ms of the planning thread over the scenarios: median [95 % interval of the median], p99");
        o.printf("%5s %2s %26s %9s%n", "apps", "k", "p50 [95 %]", "p99");
        for (Row r : rows) {
            o.printf("%5d %2d %26s %9s%n", r.apps(), r.degree(), median(r.fullCpuMs()), num(r.fullCpuMs().p99()));
        }
    }

    static void events(PrintWriter o, List<Row> rows) {
        o.println();
        o.println("One application arriving or leaving: only the ports whose application set changed are planned again,");
        o.println("each solver started from the port's previous multiplier (warm) or not (cold); CPU ms per event");
        o.printf("%5s %2s %6s %4s %6s %26s %8s %8s %10s %11s%n", "apps", "k", "event", "n", "ports", "warm p50 [95 %]",
                "warm p99", "cold p50", "cold/warm", "full/event");
        for (Row r : rows) {
            line(o, r, "arrive", r.arrive());
            line(o, r, "leave", r.leave());
        }
        o.println("cold/warm: ratio of the medians; full/event: the full allocation's median CPU over the warm event's;");
        o.println("skipped events (a workload's first arrival or last departure changes the levels) are not counted.");
    }

    private static void line(PrintWriter o, Row r, String kind, EventCost c) {
        o.printf("%5d %2d %6s %4d %6.0f %26s %8s %8s %10s %11s%n", r.apps(), r.degree(), kind, c.events(), c.meanPorts(),
                median(c.warmCpuMs()), num(c.warmCpuMs().p99()), num(c.coldCpuMs().p50()),
                ratio(c.coldCpuMs().p50(), c.warmCpuMs().p50()), ratio(r.fullCpuMs().p50(), c.warmCpuMs().p50()));
    }

    /**
     * The cells of an earlier run's printed output: (apps, k) → {p50 ms, p99 ms, p99 CPU ms}. The first seven
     * columns of the main table have kept their meaning, so any run's output serves.
     */
    static Map<String, double[]> parseBaseline(Path file) throws IOException {
        Map<String, double[]> cells = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 8 || !f[0].matches("\\d+") || !f[1].matches("\\d+") || !f[3].matches("\\d+")) {
                continue;
            }
            if (cells.containsKey(f[0] + "/" + f[1])) {
                continue; // only the main table's rows, the first with this cell
            }
            cells.put(f[0] + "/" + f[1], new double[] {parse(f[4]), parse(f[5]), parse(f[6])});
        }
        if (cells.isEmpty()) {
            throw new IllegalArgumentException(file + ": no rows of a saba bench allocation table");
        }
        return cells;
    }

    static void beside(PrintWriter o, List<Row> rows, Map<String, double[]> before, String name,
                       BiFunction<Integer, Integer, Double> paperMs) {
        o.println();
        o.println("Before (" + name + ") and now, full allocation; CPU time where the machine is shared:");
        o.printf("%5s %2s %12s %12s %13s %12s %12s %13s %10s %12s%n", "apps", "k", "p50 ms bef.", "p50 ms now",
                "p50 bef./now", "p99 cpu bef.", "p99 cpu now", "p99 bef./now", "paper p99", "paper/now");
        for (Row r : rows) {
            double[] b = before.getOrDefault(r.apps() + "/" + r.degree(), new double[] {Double.NaN, Double.NaN, Double.NaN});
            double paper = paperMs.apply(r.apps(), r.degree());
            o.printf("%5d %2d %12s %12s %13s %12s %12s %13s %10s %12s%n", r.apps(), r.degree(), num(b[0]), num(r.p50Ms()),
                    ratio(b[0], r.p50Ms()), num(b[2]), num(r.p99CpuMs()), ratio(b[2], r.p99CpuMs()),
                    Double.isNaN(paper) ? "-" : String.format("%.0f ms", paper), ratio(paper, r.p99CpuMs()));
        }
        o.println("paper/now: the paper's p99 (wall) over our p99 CPU time of the same cell.");
    }

    private static String median(Spread s) {
        return Double.isNaN(s.p50()) ? "-" : String.format("%.3f [%.3f, %.3f]", s.p50(), s.lo(), s.hi());
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.3f", v);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "-" : String.format("%.2fx", a / b);
    }

    private static double parse(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
