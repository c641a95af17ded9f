package io.saba.core.model;

/**
 * One profiling measurement: the slowdown observed when the workload ran at a share of the link.
 *
 * @param bandwidthPercent share of the link in percent, 0 &lt; b ≤ 100
 * @param slowdown         completion time at that share / completion time at 100 %, &gt; 0
 */
public record Sample(double bandwidthPercent, double slowdown) {
    /** The share as the fraction models are written in. */
    public double bandwidthFraction() {
        return bandwidthPercent / 100.0;
    }

    /** @return null if the sample is usable, else why not */
    public String defect() {
        if (Double.isNaN(bandwidthPercent) || Double.isNaN(slowdown)) {
            return "is not a number";
        }
        if (!(bandwidthPercent > 0 && bandwidthPercent <= 100)) {
            return "has bandwidth " + bandwidthPercent + " % outside (0, 100]";
        }
        if (!(slowdown > 0) || Double.isInfinite(slowdown)) {
            return "has slowdown " + slowdown + ", which must be a positive finite number";
        }
        return null;
    }

    @Override
    public String toString() {
        return "(" + bandwidthPercent + " %, " + slowdown + "x)";
    }
}
