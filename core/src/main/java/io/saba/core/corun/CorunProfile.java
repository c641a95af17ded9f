package io.saba.core.corun;

/**
 * What the co-run predictor knows of one workload: when it uses the link (its {@link TrafficRecord}) and how much
 * of that use holds the job up ({@code networkBound}).
 *
 * <p>The model behind it: each interval of the record is some computation followed by the interval's bytes; the
 * job waits for its bytes. A fraction c of the run is then spent waiting on the network, and a rate cap at share b
 * stretches the run to D(b) = 1 − c + c/b (the "inverse" sensitivity family). A job whose computation overlaps its
 * transfers waits on fewer of the bytes it sends than the record shows, so c comes from the profiled slowdown
 * curve (how the job actually slowed under caps), and the record only says <em>when</em> the job sends: its
 * per-interval utilisation is scaled so that its mean is c.
 *
 * @param record       when the workload sends, alone at full rate
 * @param networkBound c in [0, 1]: the share of the run spent waiting on the network at full rate
 */
public record CorunProfile(TrafficRecord record, double networkBound) {
    public CorunProfile {
        if (record == null) {
            throw new IllegalArgumentException("a co-run profile needs a traffic record");
        }
        if (!(networkBound >= 0 && networkBound <= 1)) {
            throw new IllegalArgumentException("network-bound share must be in [0, 1], got " + networkBound);
        }
    }

    /** A profile whose record is taken at face value (every byte waited on). */
    public static CorunProfile of(TrafficRecord record) {
        return new CorunProfile(record, record.meanUtilisation());
    }

    /**
     * The per-interval share of the run spent waiting on the network: the record's utilisation scaled to mean
     * {@link #networkBound}, clipped to [0, 1] with the excess spread over the intervals that still have room (so
     * the mean holds whenever c ≤ 1).
     */
    double[] waitingShares() {
        double[] u = record.utilisation();
        double mean = record.meanUtilisation();
        if (mean == 0) {
            java.util.Arrays.fill(u, networkBound);
            return u;
        }
        double target = networkBound * u.length;
        double scale = networkBound / mean;
        for (int i = 0; i < u.length; i++) {
            u[i] *= scale;
        }
        // clip at 1 and re-spread the excess over unclipped intervals in proportion to their share
        for (int round = 0; round < 50; round++) {
            double excess = 0;
            double room = 0;
            for (int i = 0; i < u.length; i++) {
                if (u[i] > 1) {
                    excess += u[i] - 1;
                    u[i] = 1;
                } else if (u[i] < 1) {
                    room += u[i];
                }
            }
            if (excess <= 1e-12 || room <= 0) {
                break;
            }
            double f = 1 + excess / room;
            for (int i = 0; i < u.length; i++) {
                if (u[i] < 1) {
                    u[i] *= f;
                }
            }
        }
        double sum = java.util.Arrays.stream(u).sum();
        if (sum < target - 1e-9) { // everything has hit 1 except zero intervals: fill them evenly
            int zeros = (int) java.util.Arrays.stream(u).filter(x -> x == 0).count();
            for (int i = 0; i < u.length && zeros > 0; i++) {
                if (u[i] == 0) {
                    u[i] = Math.min(1, (target - sum) / zeros);
                }
            }
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
}
