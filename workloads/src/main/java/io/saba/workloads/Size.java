package io.saba.workloads;

/**
 * The sizes a workload runs at: a profile, a factor on its record counts, and the partition count (HiBench's
 * parallelism; by default two per executor core).
 */
public record Size(Scale scale, double factor, int partitions) {
    public Size {
        if (!(factor > 0) || !Double.isFinite(factor)) {
            throw new IllegalArgumentException("scale factor must be > 0, got " + factor);
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
    }

    /** {@code base} scaled by the factor, at least 1. */
    public long count(long base) {
        return Math.max(1, Math.round(base * factor));
    }

    /** Picks this profile's value from (tiny, small, paper) and scales it. */
    public long count(long tiny, long small, long paper) {
        return count(switch (scale) {
            case TINY -> tiny;
            case SMALL -> small;
            case PAPER -> paper;
        });
    }

    /** Picks an unscaled parameter (feature counts, iterations) by profile. */
    public int pick(int tiny, int small, int paper) {
        return switch (scale) {
            case TINY -> tiny;
            case SMALL -> small;
            case PAPER -> paper;
        };
    }

    @Override
    public String toString() {
        return scale.key() + (factor == 1 ? "" : " x" + factor);
    }
}
