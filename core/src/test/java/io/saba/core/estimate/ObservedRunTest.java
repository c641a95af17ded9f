package io.saba.core.estimate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A run's units laid on a time line, checked by hand. */
class ObservedRunTest {
    private static final double EPS = 1e-9;
    /** 20 Mbit/s: 2.5 MB a second. */
    private static final double LINK = 20e6;

    /** A unit of {@code wallSeconds} whose busiest link carried {@code networkSeconds} of the full link, at share. */
    private static Observation unit(double wallSeconds, double networkSeconds, double share) {
        return Observation.ofLinkBytes(Math.round(wallSeconds * 1000), Math.round(networkSeconds * LINK / 8), LINK,
                share, 0);
    }

    @Test
    void eachUnitIsItsComputationThenItsBytesAtTheFullLink() {
        // 10 s at half the link with 4 s of bytes: 8 s sending, so 2 s computing, then 4 s at the full link.
        // 3 s alone with 0.3 s of bytes: 2.7 s computing, 0.3 s sending. A wait-signal unit has no time line.
        TrafficRecord r = ObservedRun.record(List.of(unit(10, 4, 0.5),
                new Observation(5_000, 1_000, 0.5, 0), unit(3, 0.3, 1)));
        assertEquals(ObservedRun.INTERVAL_SECONDS, r.intervalSeconds(), EPS);
        double[] expected = new double[90];
        Arrays.fill(expected, 20, 60, 1);
        Arrays.fill(expected, 87, 90, 1);
        assertArrayEquals(expected, r.utilisation(), EPS);
    }

    @Test
    void aPhaseAcrossAnIntervalBoundaryFillsEachSideByItsTime() {
        // 0.05 s computing, then 0.1 s sending: half of each of the first two intervals
        TrafficRecord r = ObservedRun.record(List.of(unit(0.15, 0.1, 1)));
        assertArrayEquals(new double[] {0.5, 0.5}, r.utilisation(), EPS);
    }

    @Test
    void aLongRunIsSampledCoarser() {
        // 2,000 units of 1 s: 2,000 s at 0.1 s would be 20,000 intervals
        List<Observation> units = java.util.Collections.nCopies(2_000, unit(1, 0.5, 1));
        TrafficRecord r = ObservedRun.record(units);
        assertEquals(ObservedRun.MAX_INTERVALS, r.utilisation().length);
        assertEquals(2_000.0 / ObservedRun.MAX_INTERVALS, r.intervalSeconds(), EPS);
        assertEquals(0.5, r.meanUtilisation(), 1e-6);
    }

    @Test
    void noRecordWithoutBytesOnATimeLine() {
        assertNull(ObservedRun.record(List.of(new Observation(5_000, 1_000, 0.5, 0))));
        assertNull(ObservedRun.record(List.of(unit(4, 0, 1))));
        assertNull(ObservedRun.profile(List.of(), SensitivityModel.inverse(0.5, 0.5)));
    }

    @Test
    void theNetworkBoundShareIsTheModelInForces() {
        // D(b) = 1 − φ + φ/b with φ = 0.3: the profile's c is 0.3, whatever the record shows
        CorunProfile p = ObservedRun.profile(List.of(unit(10, 4, 0.5)), SensitivityModel.inverse(0.7, 0.3));
        assertEquals(0.3, p.networkBound(), 1e-9);
        assertEquals(ObservedRun.record(List.of(unit(10, 4, 0.5))), p.record());
    }
}
