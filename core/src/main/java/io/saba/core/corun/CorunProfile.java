package io.saba.core.corun;

/**
 * What the co-run predictor knows of one workload: when and how fast it uses the link (its {@link TrafficRecord})
 * and how much of that use holds the job up ({@code networkBound}).
 *
 * <p>The model behind it: each interval of the record is some computation followed by the interval's bytes, sent
 * at up to the workload's <em>burst rate</em> R, the fastest it sustains on this link alone (a high percentile of
 * the record; below the link rate when something else limits it, such as several executors sending into one
 * driver). So an application never gains from more than R of a port, and loses nothing at a share of R or more.
 * The profiled slowdown curve gives c of D(b) = 1 − c + c/b, the share of the run spent waiting on the network
 * under caps. It may only lower the record's weight, never raise it: a job whose computation overlaps its
 * transfers waits on fewer of its bytes than the record shows (c below the record's share of time spent sending,
 * ū/R), while a curve steeper than the record comes from caps on other ports of its paths (a driver's own link,
 * for instance), which a shared port does not reproduce.
 *
 * <p>A class rather than a record only to keep what every replay of a weight search reads (the burst rate and the
 * phases from the start), computed once; equality is a record's, over the two values.
 */
public final class CorunProfile {
    private final TrafficRecord record;
    private final double networkBound;
    private final double burstRate;
    /** {@link PortReplay#phasesOf} from the start: read, never written, by every replay. */
    private final double[] phasesFromStart;
    /** {@link PortReplay#aloneAfter} of {@link #phasesFromStart}: read by every bounded replay. */
    private final double[] aloneAfterFromStart;

    /**
     * @param record       when the workload sends, alone at full rate
     * @param networkBound c in [0, 1]: the share of the run spent waiting on the network at full rate
     */
    public CorunProfile(TrafficRecord record, double networkBound) {
        if (record == null) {
            throw new IllegalArgumentException("a co-run profile needs a traffic record");
        }
        if (!(networkBound >= 0 && networkBound <= 1)) {
            throw new IllegalArgumentException("network-bound share must be in [0, 1], got " + networkBound);
        }
        this.record = record;
        this.networkBound = networkBound;
        this.burstRate = burstRate(record);
        this.phasesFromStart = PortReplay.phasesOf(this, 0);
        this.aloneAfterFromStart = PortReplay.aloneAfter(phasesFromStart, burstRate);
    }

    public TrafficRecord record() {
        return record;
    }

    public double networkBound() {
        return networkBound;
    }

    double[] phasesFromStart() {
        return phasesFromStart;
    }

    double[] aloneAfterFromStart() {
        return aloneAfterFromStart;
    }

    /** A profile whose record is taken at face value (every byte waited on: c = ū/R, the share of time sending). */
    public static CorunProfile of(TrafficRecord record) {
        double u = record.meanUtilisation();
        return new CorunProfile(record, u == 0 ? 0 : Math.min(1, u / burstRate(record)));
    }

    /** Intervals below this utilisation do not count towards the burst rate (idle links still carry a trickle). */
    private static final double ACTIVE = 0.05;
    /** The percentile of the active intervals' utilisation taken as the burst rate. */
    private static final double BURST_PERCENTILE = 0.9;

    /**
     * The fastest the workload sustains on this link alone: the 90th percentile of the utilisation of the intervals
     * in which it sends at all (1 for a record that never sends).
     */
    public double burstRate() {
        return burstRate;
    }

    private static double burstRate(TrafficRecord record) {
        double[] active = java.util.Arrays.stream(record.utilisation()).filter(u -> u >= ACTIVE).sorted().toArray();
        if (active.length == 0) {
            return 1;
        }
        return Math.max(ACTIVE, active[(int) Math.floor(BURST_PERCENTILE * (active.length - 1))]);
    }

    /**
     * The bytes each interval waits for, as a fraction of the link times the interval: the record's utilisation,
     * scaled down when the curve says the job waits on less of the run than the record sends (c &lt; ū/R).
     */
    public double[] waitedBytes() {
        double[] u = record.utilisation();
        double sending = record.meanUtilisation() / burstRate();
        double scale = sending <= 0 ? 1 : Math.min(1, networkBound / sending);
        for (int i = 0; i < u.length; i++) {
            u[i] *= scale;
        }
        return u;
    }

    /** The capped-rate slowdown this profile implies: D(b) = 1 − c + c/b. */
    public double cappedSlowdown(double share) {
        if (!(share > 0)) {
            throw new IllegalArgumentException("share must be > 0, got " + share);
        }
        return 1 - networkBound + networkBound / Math.min(1, share);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CorunProfile p && p.record.equals(record)
                && Double.compare(p.networkBound, networkBound) == 0;
    }

    @Override
    public int hashCode() {
        return record.hashCode() * 31 + Double.hashCode(networkBound);
    }

    @Override
    public String toString() {
        return "CorunProfile[record=" + record + ", networkBound=" + networkBound + "]";
    }
}
