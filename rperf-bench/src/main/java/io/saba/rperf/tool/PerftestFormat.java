package io.saba.rperf.tool;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * perftest's column layout (ib_send_lat / ib_send_bw), so RPerf output lines up with what RDMA users
 * already read. Latency values are microseconds; t_typical is the median, as in perftest.
 */
public final class PerftestFormat {
    public static final String LAT_HEADER = String.format(Locale.ROOT,
            " %-7s %-10s %-14s %-14s %-16s %-14s %-14s %-22s %-22s",
            "#bytes", "#iterations", "t_min[usec]", "t_max[usec]", "t_typical[usec]", "t_avg[usec]",
            "t_stdev[usec]", "99% percentile[usec]", "99.9% percentile[usec]");
    public static final String BW_HEADER = String.format(Locale.ROOT, " %-7s %-12s %-18s %-20s %-14s",
            "#bytes", "#iterations", "BW peak[Gb/sec]", "BW average[Gb/sec]", "MsgRate[Mpps]");

    private PerftestFormat() {
    }

    /** One latency line from a histogram of nanoseconds. */
    public static String latencyLine(int bytes, Histogram h) {
        return String.format(Locale.ROOT, " %-7d %-10d %-14.2f %-14.2f %-16.2f %-14.2f %-14.2f %-22.2f %-22.2f",
                bytes, h.getTotalCount(), h.getMinValue() / 1e3, h.getMaxValue() / 1e3,
                h.getValueAtPercentile(50) / 1e3, h.getMean() / 1e3, h.getStdDeviation() / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3);
    }

    /** One bandwidth line; we keep no per-interval peak, so peak is the average as perftest prints without -D. */
    public static String bandwidthLine(BandwidthResult r) {
        return String.format(Locale.ROOT, " %-7d %-12d %-18.2f %-20.2f %-14.6f", r.spec().size(), r.messages(),
                r.gbps(), r.gbps(), r.mpps());
    }
}
