package io.saba.workloads;

import java.util.Locale;

/**
 * A named size profile. {@code tiny} is for tests (all ten workloads in seconds), {@code small} for profiling on
 * the namespace testbed (a link of 100-200 Mbit/s is the bottleneck, not the 2 cores), {@code paper} the dataset
 * sizes of the paper's Table 1 (for a real cluster). A factor multiplies the record counts, as the campaign's
 * 0.1x / 1x / 10x datasets do.
 */
public enum Scale {
    TINY, SMALL, PAPER;

    public static Scale parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown scale '" + s + "' (expected tiny, small or paper)");
        }
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
