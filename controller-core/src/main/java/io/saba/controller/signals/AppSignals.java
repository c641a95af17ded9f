package io.saba.controller.signals;

import io.saba.wire.WorkSignals;
import java.util.List;

/**
 * An application's work signals as the controller keeps them.
 *
 * @param latest   the last units reported, oldest first (at most {@link SignalStore#KEEP})
 * @param total    the sum over every unit reported (unit {@link WorkSignals#TOTAL})
 * @param reported how many units were reported
 */
public record AppSignals(List<WorkSignals> latest, WorkSignals total, long reported) {
    /** Network wait over run time, summed over every unit; NaN without run time. */
    public double networkWaitShare() {
        return total.runMillis() == 0 ? Double.NaN : (double) total.networkWaitMillis() / total.runMillis();
    }
}
