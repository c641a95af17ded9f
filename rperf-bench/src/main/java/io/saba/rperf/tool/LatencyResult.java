package io.saba.rperf.tool;

import org.HdrHistogram.Histogram;

/**
 * What one LSG measured, in nanoseconds: plain end-to-end RTT (T_W − T_P), the loopback reference
 * (T_L − T_P) and the loopback-subtracted RTT (T_W − T_L); the last two are null without loopback.
 * {@code negative} counts samples where the loopback took longer than the wire (recorded as 0).
 */
public record LatencyResult(GeneratorSpec spec, Histogram endToEnd, Histogram loopback, Histogram subtracted,
                            long negative) {
    public long iterations() {
        return endToEnd.getTotalCount();
    }
}
