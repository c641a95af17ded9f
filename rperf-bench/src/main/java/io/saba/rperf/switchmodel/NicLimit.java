package io.saba.rperf.switchmodel;

/**
 * How fast a sender's NIC can put messages on the wire, apart from the link: at most {@code maxGbps} on
 * the wire and at most {@code maxMpps} million messages per second (0 = no limit). Real BSGs never reach
 * line rate (the paper measured 52.2 Gbps at 4096 B through the switch, and about 7.7 M messages/s per
 * sender with small batched messages), and whether a sender saturates decides whether input buffers fill.
 */
public record NicLimit(double maxGbps, double maxMpps) {
    public static final NicLimit NONE = new NicLimit(0, 0);

    /** The paper's ConnectX-4 as measured in RPerf §VI-B and §VIII-A (Figs. 5 and 9). */
    public static final NicLimit PAPER_CONNECTX4 = new NicLimit(52.2 * 4122 / 4096, 7.66);

    /** Smallest spacing, in picoseconds, between the starts of two packets of {@code wireBytes}. */
    public long minGapPs(int wireBytes) {
        double gap = 0;
        if (maxGbps > 0) {
            gap = Math.max(gap, wireBytes * 8_000.0 / maxGbps);
        }
        if (maxMpps > 0) {
            gap = Math.max(gap, 1e6 / maxMpps);
        }
        return Math.round(gap);
    }
}
