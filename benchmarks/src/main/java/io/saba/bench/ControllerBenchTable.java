package io.saba.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * {@link ControllerBench}'s printed figures: the table of its phases with the per-thread tables after it, the same
 * table read back from an earlier run's output as a baseline, and the phases side by side with that baseline.
 */
final class ControllerBenchTable {
    private static final String HEADER = String.format("%-13s %9s %9s %8s %8s %8s %8s %8s %8s %8s %8s %6s %7s",
            "phase", "events/s", "pushed/s", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "CPU us", "recomp",
            "lag p50", "lag p99", "GCs", "GC ms");

    private final PrintStream out;

    ControllerBenchTable(PrintStream out) {
        this.out = out;
    }

    /** One phase's figures: what the table prints and a baseline is read back from. */
    record Row(String key, String what, long events, double eventsPerSecond, double pushedPerSecond, Histogram latency,
               double cpuMicrosPerEvent, double recomputeMicrosPerEvent, Histogram lag, long gcCount,
               long gcMillis, Map<String, Double> cpuMicrosByThread, Map<String, Double> kilobytesByThread,
               long rounds, double meanRoundMillis) {
    }

    void print(List<Row> rows) {
        out.println();
        for (Row r : rows) {
            out.printf("%-13s %s%n", r.key(), r.what());
        }
        out.println("(events/s: acknowledged; pushed/s: until every change was pushed; latency per call, or per event "
                + "for client-open; CPU and recomp: process CPU (the JIT compilers' left out: a one-off) and "
                + "recompute-thread CPU per event until pushed, us; lag: event -> backend push, ms; GCs and GC ms: "
                + "collections and their pauses)");
        out.println(HEADER);
        for (Row r : rows) {
            out.printf("%-13s %9.0f %9.0f %8.3f %8.3f %8.3f %8.3f %8.1f %8.1f %8.2f %8.2f %6d %7d%n", r.key(),
                    r.eventsPerSecond(), r.pushedPerSecond(), ms(r.latency(), 50), ms(r.latency(), 99),
                    ms(r.latency(), 99.9), r.latency().getMaxValue() / 1e6, r.cpuMicrosPerEvent(),
                    r.recomputeMicrosPerEvent(), ms(r.lag(), 50), ms(r.lag(), 99), r.gcCount(), r.gcMillis());
        }
        out.println();
        printByThread("CPU per event (us) by thread, until pushed (the bench's client threads included):", rows,
                Row::cpuMicrosByThread);
        out.println();
        printByThread("allocated per event (kB) by thread, until pushed:", rows, Row::kilobytesByThread);
        out.println();
        out.println("recompute rounds (each: snapshot, allocate and push the ports dirtied since the last):");
        for (Row r : rows) {
            out.printf("%-13s %6d rounds, %.1f events and %.2f ms each on average%n", r.key(), r.rounds(),
                    r.rounds() == 0 ? 0 : (double) r.events() / r.rounds(), r.meanRoundMillis());
        }
    }

    private void printByThread(String title, List<Row> rows, Function<Row, Map<String, Double>> of) {
        out.println(title);
        StringBuilder head = new StringBuilder(String.format("%-13s", "phase"));
        of.apply(rows.get(0)).keySet().forEach(k -> head.append(String.format(" %14s", k)));
        out.println(head);
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format("%-13s", r.key()));
            of.apply(r).values().forEach(v -> line.append(String.format(" %14.1f", v)));
            out.println(line);
        }
    }

    /** A latency histogram's percentile in milliseconds; 0 when it recorded nothing. */
    static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
    }

    /**
     * The rows of an earlier run's output, by phase key: the numbers after the key, in {@link #HEADER}'s order.
     * Lines that are not rows of the table are skipped.
     */
    static Map<String, double[]> readBaseline(Path file) throws IOException {
        Map<String, double[]> rows = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 13 || !f[0].matches("[a-z]+-?[a-z]*")) {
                continue;
            }
            double[] v = new double[12];
            try {
                for (int i = 0; i < 12; i++) {
                    v[i] = Double.parseDouble(f[i + 1]);
                }
            } catch (NumberFormatException notARow) {
                continue;
            }
            rows.put(f[0], v);
        }
        return rows;
    }

    /**
     * Baseline and now side by side: events/s, p99 latency, CPU per event, p99 lag, and now / baseline.
     *
     * @param file     where the baseline was read from, to name it
     * @param baseline its rows, as {@link #readBaseline} reads them
     */
    void printComparison(List<Row> rows, Path file, Map<String, double[]> baseline) {
        out.printf("%nbeside the baseline %s (ratio = now / baseline; below 1 is better for latency, CPU and lag, "
                + "above 1 for events/s)%n", file);
        out.printf("%-13s %-22s %-22s %-22s %-22s %-22s%n", "phase", "events/s", "p99 ms", "CPU us/event",
                "recomp us/event", "lag p99 ms");
        for (Row r : rows) {
            double[] b = baseline.get(r.key());
            if (b == null) {
                out.printf("%-13s (not in the baseline)%n", r.key());
                continue;
            }
            out.printf("%-13s %-22s %-22s %-22s %-22s %-22s%n", r.key(), pair(b[0], r.eventsPerSecond()),
                    pair(b[3], ms(r.latency(), 99)), pair(b[6], r.cpuMicrosPerEvent()),
                    pair(b[7], r.recomputeMicrosPerEvent()), pair(b[9], ms(r.lag(), 99)));
        }
    }

    private static String pair(double before, double now) {
        return String.format("%.4g -> %.4g (%.2fx)", before, now, before == 0 ? Double.NaN : now / before);
    }
}
