package io.saba.rperf.switchmodel;

/**
 * InfiniBand congestion control (IBTA Annex A10) as this model runs it. A switch output port whose queue on a VL
 * holds at least {@code thresholdBytes} (the packets waiting for it in every input buffer of the switch) is congested;
 * it sets FECN on one in every {@code markingRate} data packets it sends on that VL. The destination HCA returns the
 * mark as BECN on its acknowledgement. The source queue pair (CC per QP, OpenSM's {@code port_control} bit 0 = 0)
 * raises its congestion control table index CCTI by {@code cctiIncrease} per BECN, up to {@code cctiLimit}; the
 * index falls by one every {@code cctiTimerPs}; and the QP starts a packet no sooner than CCTI ×
 * {@code ipdStepPs} after its previous one (a linear congestion control table).
 *
 * <p>Every switch port here is a root of its congestion (HCAs never withhold credits), so no victim mask is modelled.
 * OpenSM ships congestion control off with every parameter 0, so the values are ours ({@link #defaults()}); the
 * switch's threshold, the marking rate and the table's shape are the knobs the annex leaves to the operator.
 *
 * @param thresholdBytes bytes queued for a port's VL from which it marks
 * @param markingRate    mark one in this many data packets sent while congested (1: every one)
 * @param cctiIncrease   CCTI steps per BECN
 * @param cctiLimit      highest CCTI (the table's last entry)
 * @param cctiTimerPs    one CCTI step is undone per this many picoseconds without a BECN
 * @param ipdStepPs      inter-packet delay added per CCTI step, picoseconds
 */
public record CongestionControl(long thresholdBytes, int markingRate, int cctiIncrease, int cctiLimit,
                                long cctiTimerPs, long ipdStepPs) {
    public CongestionControl {
        if (thresholdBytes < 1 || markingRate < 1 || cctiIncrease < 1 || cctiLimit < 1 || cctiTimerPs < 1
                || ipdStepPs < 1) {
            throw new IllegalArgumentException("congestion control parameters must be positive: " + thresholdBytes
                    + ", " + markingRate + ", " + cctiIncrease + ", " + cctiLimit + ", " + cctiTimerPs + ", "
                    + ipdStepPs);
        }
    }

    /**
     * Marks from a queue of 8 MTU packets (a quarter of one 32 KiB input buffer), every packet; a BECN raises the
     * index by 1 of 127; an index step delays the next packet by an eighth of an MTU packet's time at 56 Gbit/s
     * (73 ns, so index 8 halves a QP's rate and 127 leaves it 1/17) and is undone after 10 µs.
     */
    public static CongestionControl defaults() {
        return new CongestionControl(8 * 4096, 1, 1, 127, 10_000_000L, 73_000L);
    }

    /**
     * A preset by name: {@code default} ({@link #defaults()}) or {@code aggressive}, which marks from 2 queued
     * packets, raises the index by 2 per BECN, delays a whole MTU packet's time (589 ns) per step and undoes a step
     * only after 20 µs: how much a harder-throttling setting changes a result.
     */
    public static CongestionControl preset(String name) {
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "default" -> defaults();
            case "aggressive" -> new CongestionControl(2 * 4096, 1, 2, 127, 20_000_000L, 589_000L);
            default -> throw new IllegalArgumentException("unknown congestion control preset '" + name
                    + "': default or aggressive");
        };
    }

    /** The delay this index puts between a QP's packet starts. */
    long interPacketDelayPs(int ccti) {
        return ccti * ipdStepPs;
    }
}
