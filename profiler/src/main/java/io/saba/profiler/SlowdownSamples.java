package io.saba.profiler;

import io.saba.core.model.Sample;
import io.saba.core.stats.Stats;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns raw completion times into slowdown samples: each completed run's time divided by the median completed
 * time at 100 % of the link (the paper's definition, §4.1). The median resists one slow outlier among the
 * baseline repetitions better than the mean; every run stays its own sample, so the fit sees the spread.
 */
public final class SlowdownSamples {
    public static final double FULL_RATE = 100.0;

    private SlowdownSamples() {
    }

    /**
     * @throws IllegalStateException if no run at 100 % completed: without a baseline there is no slowdown
     */
    public static List<Sample> of(List<RunRecord> runs) {
        double[] baseline = runs.stream()
                .filter(r -> r.completed() && r.bandwidthPercent() == FULL_RATE)
                .mapToDouble(RunRecord::seconds).sorted().toArray();
        if (baseline.length == 0) {
            throw new IllegalStateException("no completed run at 100 % of the link: slowdowns need that baseline");
        }
        double reference = median(baseline);
        List<Sample> samples = new ArrayList<>();
        for (RunRecord r : runs) {
            if (r.completed()) {
                samples.add(new Sample(r.bandwidthPercent(), r.seconds() / reference));
            }
        }
        return samples;
    }

    /** {@link Stats#median}. */
    static double median(double[] values) {
        return Stats.median(values);
    }
}
