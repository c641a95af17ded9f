package io.saba.core.corun;

import java.util.Arrays;

/**
 * How a workload occupies a link when it runs alone at full rate: the fraction of the link it used in each of
 * consecutive intervals (the profiler samples a host's egress byte counter). Its duty cycle, its bursts and its
 * stages are what a static slowdown curve leaves out: under work-conserving weights an application takes whatever
 * the others leave idle, so when each one sends decides what a weight costs it.
 *
 * @param intervalSeconds length of one interval
 * @param utilisation     fraction of the link used per interval, each in [0, 1]
 */
public record TrafficRecord(double intervalSeconds, double[] utilisation) {
    public TrafficRecord {
        if (!(intervalSeconds > 0) || !Double.isFinite(intervalSeconds)) {
            throw new IllegalArgumentException("a traffic record's interval must be > 0 s, got " + intervalSeconds);
        }
        if (utilisation == null || utilisation.length == 0) {
            throw new IllegalArgumentException("a traffic record needs at least one interval");
        }
        utilisation = utilisation.clone();
        for (int i = 0; i < utilisation.length; i++) {
            double u = utilisation[i];
            if (!(u >= 0 && u <= 1)) {
                throw new IllegalArgumentException("interval " + i + ": utilisation " + u + " is not in [0, 1]");
            }
        }
    }

    /** A job that sends at a constant fraction of the link for {@code seconds}. */
    public static TrafficRecord constant(double seconds, double utilisation, double intervalSeconds) {
        int n = Math.max(1, (int) Math.round(seconds / intervalSeconds));
        double[] u = new double[n];
        Arrays.fill(u, utilisation);
        return new TrafficRecord(intervalSeconds, u);
    }

    /** The run's length alone at full rate. */
    public double seconds() {
        return intervalSeconds * utilisation.length;
    }

    /** Mean utilisation over the run: the share of its time the link was busy with it. */
    public double meanUtilisation() {
        return Arrays.stream(utilisation).average().orElse(0);
    }

    @Override
    public double[] utilisation() {
        return utilisation.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrafficRecord r && r.intervalSeconds == intervalSeconds
                && Arrays.equals(r.utilisation, utilisation);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(intervalSeconds) * 31 + Arrays.hashCode(utilisation);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "TrafficRecord[%d × %.3f s, mean %.3f]", utilisation.length,
                intervalSeconds, meanUtilisation());
    }
}
