package io.saba.core.corun;

import io.saba.core.model.Sample;
import java.util.List;

/**
 * The share of a run spent waiting on the network, read off a profile's capped slowdowns: the c of
 * D(b) = 1 − c + c/b fitted by least squares (D(1) = 1 by construction, so one parameter, in closed form), clipped
 * to [0, 1]. A job whose curve stays flat until a knee gets a small c: it waits on the network only at small
 * shares, which is also what it does beside an application that leaves the link idle part of the time.
 */
public final class NetworkBound {
    private NetworkBound() {
    }

    /** c for these samples (percent of the link, slowdown); 0 when no sample is below 100 %. */
    public static double of(List<Sample> samples) {
        double num = 0;
        double den = 0;
        for (Sample s : samples) {
            double b = s.bandwidthPercent() / 100;
            if (b >= 1) {
                continue;
            }
            double x = 1 / b - 1;
            num += (s.slowdown() - 1) * x;
            den += x * x;
        }
        return den == 0 ? 0 : Math.max(0, Math.min(1, num / den));
    }
}
