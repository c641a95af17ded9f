package io.saba.controller;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The controller's counters, written in the Prometheus text format (version 0.0.4) by {@link #prometheus()}.
 * Hand-written because the format is ten lines of code and a client library would be one more jar to keep.
 */
public final class Metrics {
    public final LongAdder registrations = new LongAdder();
    public final LongAdder deregistrations = new LongAdder();
    public final LongAdder leaseExpirations = new LongAdder();
    public final LongAdder connectionEvents = new LongAdder();
    public final LongAdder connectionEventsApplied = new LongAdder();
    public final LongAdder requestsRejected = new LongAdder();
    public final LongAdder recomputations = new LongAdder();
    public final LongAdder recomputeFailures = new LongAdder();
    public final LongAdder backendPushes = new LongAdder();
    public final LongAdder backendFailures = new LongAdder();
    public final LongAdder tableReloads = new LongAdder();
    public final LongAdder workSignals = new LongAdder();
    public final LongAdder sensitivityObservations = new LongAdder();
    /** Workload → how often its observations were flagged as contradicting its profile. */
    private final Map<String, LongAdder> drifts = new ConcurrentHashMap<>();
    private final Map<String, Labelled> labelled = new LinkedHashMap<>();
    public final SecondsHistogram recomputeSeconds = new SecondsHistogram();
    public final LagRecorder pushLag = new LagRecorder();
    /** The jar's version, "dev" when run from classes (tests, an IDE). */
    private static final String VERSION = java.util.Objects.requireNonNullElse(
            Metrics.class.getPackage().getImplementationVersion(), "dev");
    private final Map<String, Gauge> gauges = new LinkedHashMap<>();

    private record Gauge(String help, Supplier<String> value) {
    }

    /** Registers a gauge read at scrape time; {@code help} is its {@code # HELP} text. */
    public synchronized void gauge(String name, String help, LongSupplier value) {
        gauges.put(name, new Gauge(help, () -> Long.toString(value.getAsLong())));
    }

    /** Registers a gauge with a fractional value (a ratio), read at scrape time. */
    public synchronized void ratioGauge(String name, String help, DoubleSupplier value) {
        gauges.put(name, new Gauge(help, () -> Double.toString(value.getAsDouble())));
    }

    /** A gauge with one series per value of one label, read at scrape time. */
    private record Labelled(String help, String label, Supplier<Map<String, Double>> values) {
    }

    /** Registers a gauge family: {@code name{label="key"} value} for every entry {@code values} returns. */
    public synchronized void labelledGauge(String name, String help, String label,
                                           Supplier<Map<String, Double>> values) {
        labelled.put(name, new Labelled(help, label, values));
    }

    /** A workload's observations were flagged as contradicting its profile. */
    public void driftFlagged(String workload) {
        drifts.computeIfAbsent(workload, w -> new LongAdder()).increment();
    }

    public synchronized String prometheus() {
        StringBuilder s = new StringBuilder(2048);
        s.append("# HELP saba_build_info the controller's version and the Java it runs on\n")
                .append("# TYPE saba_build_info gauge\n")
                .append("saba_build_info{version=\"").append(VERSION).append("\",java=\"")
                .append(System.getProperty("java.version")).append("\"} 1\n");
        counter(s, "saba_registrations_total", "Register calls accepted", registrations);
        counter(s, "saba_deregistrations_total", "applications deregistered", deregistrations);
        counter(s, "saba_lease_expirations_total", "applications dropped because their lease ran out",
                leaseExpirations);
        counter(s, "saba_connection_events_total", "connection events received", connectionEvents);
        counter(s, "saba_connection_events_applied_total", "connection events that changed state",
                connectionEventsApplied);
        counter(s, "saba_requests_rejected_total", "requests and batched events refused with an error: invalid, "
                + "unauthenticated, denied, unknown application, stale attempt (gRPC calls and HTTP pages alike)",
                requestsRejected);
        counter(s, "saba_recomputations_total", "coalesced recomputation rounds", recomputations);
        counter(s, "saba_recompute_failures_total", "recomputation rounds that failed", recomputeFailures);
        counter(s, "saba_backend_pushes_total", "calls to the fabric backend", backendPushes);
        counter(s, "saba_backend_failures_total", "ports the fabric backend failed to configure", backendFailures);
        counter(s, "saba_table_reloads_total", "sensitivity table reloads", tableReloads);
        counter(s, "saba_work_signals_total", "work signals kept (units of applications' work reported)",
                workSignals);
        counter(s, "saba_sensitivity_observations_total", "units of work turned into observations for the online "
                + "sensitivity estimate", sensitivityObservations);
        s.append("# HELP saba_sensitivity_drifts_total times a workload's observations were flagged as contradicting "
                + "its profile\n# TYPE saba_sensitivity_drifts_total counter\n");
        new TreeMap<>(drifts).forEach((w, n) -> series(s, "saba_sensitivity_drifts_total", "workload", w, n.sum()));
        recomputeSeconds.write(s, "saba_recompute_seconds", "duration of a recomputation round");
        Histogram lag = pushLag.cumulative();
        s.append("# HELP saba_push_lag_seconds time from a state change to its backend push\n");
        s.append("# TYPE saba_push_lag_seconds summary\n");
        for (double q : new double[] {0.5, 0.99, 0.999}) {
            // nothing measured is not a lag of 0 s
            s.append("saba_push_lag_seconds{quantile=\"").append(q).append("\"} ")
                    .append(lag.getTotalCount() == 0 ? "NaN" : Double.toString(lag.getValueAtPercentile(q * 100) / 1e9))
                    .append('\n');
        }
        s.append("saba_push_lag_seconds_sum ").append(pushLag.sumNanos() / 1e9).append('\n');
        s.append("saba_push_lag_seconds_count ").append(lag.getTotalCount()).append('\n');
        for (Map.Entry<String, Gauge> g : gauges.entrySet()) {
            s.append("# HELP ").append(g.getKey()).append(' ').append(g.getValue().help()).append('\n');
            s.append("# TYPE ").append(g.getKey()).append(" gauge\n");
            s.append(g.getKey()).append(' ').append(g.getValue().value().get()).append('\n');
        }
        for (Map.Entry<String, Labelled> g : labelled.entrySet()) {
            s.append("# HELP ").append(g.getKey()).append(' ').append(g.getValue().help()).append('\n');
            s.append("# TYPE ").append(g.getKey()).append(" gauge\n");
            new TreeMap<>(g.getValue().values().get()).forEach((k, v) -> series(s, g.getKey(), g.getValue().label(),
                    k, v));
        }
        return s.toString();
    }

    /** {@code name{label="value"} number}, the label value escaped as the text format asks. */
    private static void series(StringBuilder s, String name, String label, String value, Number n) {
        s.append(name).append('{').append(label).append("=\"")
                .append(value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
                .append("\"} ").append(n).append('\n');
    }

    private static void counter(StringBuilder s, String name, String help, LongAdder v) {
        s.append("# HELP ").append(name).append(' ').append(help).append('\n');
        s.append("# TYPE ").append(name).append(" counter\n");
        s.append(name).append(' ').append(v.sum()).append('\n');
    }

    /** A fixed-bucket Prometheus histogram of durations. */
    public static final class SecondsHistogram {
        private static final double[] BOUNDS = {1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1,
            0.25, 0.5, 1, 2.5, 5};
        private final LongAdder[] buckets = new LongAdder[BOUNDS.length];
        private final LongAdder count = new LongAdder();
        private final LongAdder sumNanos = new LongAdder();

        SecondsHistogram() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        public void observeNanos(long nanos) {
            double seconds = nanos / 1e9;
            for (int i = 0; i < BOUNDS.length; i++) {
                if (seconds <= BOUNDS[i]) {
                    buckets[i].increment();
                    break;
                }
            }
            count.increment();
            sumNanos.add(nanos);
        }

        public long count() {
            return count.sum();
        }

        /** The durations observed, summed. */
        public long sumNanos() {
            return sumNanos.sum();
        }

        void write(StringBuilder s, String name, String help) {
            s.append("# HELP ").append(name).append(' ').append(help).append('\n');
            s.append("# TYPE ").append(name).append(" histogram\n");
            long cumulative = 0;
            for (int i = 0; i < BOUNDS.length; i++) {
                cumulative += buckets[i].sum();
                s.append(name).append("_bucket{le=\"").append(BOUNDS[i]).append("\"} ").append(cumulative)
                        .append('\n');
            }
            s.append(name).append("_bucket{le=\"+Inf\"} ").append(count.sum()).append('\n');
            s.append(name).append("_sum ").append(sumNanos.sum() / 1e9).append('\n');
            s.append(name).append("_count ").append(count.sum()).append('\n');
        }
    }

    /**
     * Event-to-push lag in nanoseconds (HdrHistogram: exact percentiles for the benchmark and the summary), and the
     * exact sum a Prometheus summary carries beside its count (a rate of sum over a rate of count is the mean lag).
     */
    public static final class LagRecorder {
        private final Recorder recorder = new Recorder(3);
        private final Histogram total = new Histogram(3);
        private final LongAdder sumNanos = new LongAdder();

        public void recordNanos(long nanos) {
            long n = Math.max(0, nanos);
            recorder.recordValue(n);
            sumNanos.add(n);
        }

        /** The sum of every lag recorded since start. */
        public long sumNanos() {
            return sumNanos.sum();
        }

        /** Everything recorded since start. */
        public synchronized Histogram cumulative() {
            total.add(recorder.getIntervalHistogram());
            return total.copy();
        }
    }
}
