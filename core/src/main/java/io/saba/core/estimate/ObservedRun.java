package io.saba.core.estimate;

import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.NetworkBound;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.List;

/**
 * A co-run profile for a workload nobody profiled, from the units one of its applications reported: what lets the
 * co-run predictor decide a port without the table's traffic record.
 *
 * <p>The record stands in for the profiler's egress samples at the predictor's own model of a run: each unit, in the
 * order reported, is its computation followed by its link bytes at the full link. A unit read from its link bytes
 * ({@link Observation.Signal#LINK_BYTES}) gives both: n, the time its busiest link needed for them at the full
 * link, and the rest of its wall duration once the network part at its share (n/s) is taken out. What it loses
 * against a sampled record: the bursts inside a unit (a stage's fetches overlap its computation; here they follow
 * it), the idle time between units, and the overlap of units that ran at once (they follow each other here, so the
 * run reads longer). Units read from the engine's wait counter do not count: their times are summed over tasks, not
 * wall clock, so they cannot be laid on one time line with another application's.
 */
public final class ObservedRun {
    /** The record's resolution, as the profiler samples: a tenth of a second. */
    public static final double INTERVAL_SECONDS = 0.1;
    /** At most this many intervals; a longer run is sampled coarser. */
    static final int MAX_INTERVALS = 6000;
    /** The shares the model in force is read at for the network-bound share (as a profile's caps). */
    private static final double[] SHARES = {0.05, 0.1, 0.25, 0.5, 0.75};

    private ObservedRun() {
    }

    /** The units that can be laid on a time line: those read from their link bytes. */
    public static boolean usable(Observation o) {
        return o.signal() == Observation.Signal.LINK_BYTES;
    }

    /**
     * The run's traffic record at the full link, or null when none of its units is {@linkplain #usable usable} or
     * none sent anything.
     */
    public static TrafficRecord record(List<Observation> units) {
        List<double[]> phases = new ArrayList<>(); // {compute seconds, network seconds} per unit
        double total = 0;
        double network = 0;
        for (Observation o : units) {
            if (!usable(o)) {
                continue;
            }
            double n = o.networkMillisAtFullLink() / 1000;
            double c = o.computeMillis() / 1000;
            phases.add(new double[] {c, n});
            total += c + n;
            network += n;
        }
        if (!(network > 0)) {
            return null;
        }
        double interval = Math.max(INTERVAL_SECONDS, total / MAX_INTERVALS);
        double[] busy = new double[Math.max(1, (int) Math.ceil(total / interval - 1e-9))];
        double t = 0;
        for (double[] p : phases) {
            t += p[0];
            fill(busy, t, t + p[1], interval);
            t += p[1];
        }
        for (int i = 0; i < busy.length; i++) {
            busy[i] = Math.min(1, busy[i] / interval);
        }
        return new TrafficRecord(interval, busy);
    }

    /** Adds the time [from, to) spends in each interval. */
    private static void fill(double[] busy, double from, double to, double interval) {
        int i = (int) Math.floor(from / interval);
        while (from < to && i < busy.length) {
            double end = Math.min(to, (i + 1) * interval);
            busy[i] += Math.max(0, end - from);
            from = end;
            i++;
        }
    }

    /**
     * The run's co-run profile: its {@link #record} with the network-bound share that {@code model} (the workload's
     * model in force) gives, read as a profile's capped samples are ({@link NetworkBound}); null without a record.
     */
    public static CorunProfile profile(List<Observation> units, SensitivityModel model) {
        TrafficRecord record = record(units);
        if (record == null) {
            return null;
        }
        List<Sample> samples = new ArrayList<>();
        for (double b : SHARES) {
            samples.add(new Sample(100 * b, model.slowdown(b)));
        }
        return new CorunProfile(record, NetworkBound.of(samples));
    }
}
