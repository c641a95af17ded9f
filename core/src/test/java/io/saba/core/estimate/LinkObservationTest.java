package io.saba.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A unit's network time from the bytes on its busiest host link ({@link Observation#ofLinkBytes}), on cases computed
 * by hand: X bytes at rate R need n = 8X/R at the full link and n/s at share s, within the unit's wall duration D.
 */
class LinkObservationTest {
    private static final double EPS = 1e-12;
    private static final double MBIT_20 = 20e6;

    @Test
    void tenMegabytesAtTwentyMegabitsInTenSecondsIsFortyPercentNetwork() {
        // 10 MB at 20 Mbit/s: 8e7 bit / 2e7 bit/s = 4 s of the 10 s; φ = 4/10; at 25 %: 0.6 + 0.4/0.25 = 2.2
        Observation o = Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 1.0, 12_000_000);
        assertEquals(new Observation(10_000, 4_000, 1.0, 12_000_000, Observation.Signal.LINK_BYTES), o);
        SensitivityEstimate e = SensitivityEstimate.of(List.of(o));
        assertEquals(0.4, e.networkShare(), EPS);
        assertEquals(2.2, e.slowdown(0.25), EPS);
        assertEquals(1.4, e.slowdown(0.5), EPS);
        assertEquals(12_000_000, e.bytes(), "every network byte shows, not only the busiest link's");
        assertEquals("link", e.signal());
        assertEquals(1, e.linkObservations());
    }

    @Test
    void atHalfTheLinkTheSameBytesTakeTwiceTheLinkTime() {
        // 10 MB at 20 Mbit/s at share 0.5: 8 s of link time within D = 10 s, so c = 2 s and n = 4 s: φ = 4/6
        Observation o = Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 0.5, 10_000_000);
        assertEquals(8_000, o.networkWaitMillis());
        assertEquals(2.0 / 3, SensitivityEstimate.of(List.of(o)).networkShare(), EPS);
    }

    @Test
    void theSameWorkAtTwoSharesGivesOneCurve() {
        // c = 6 s, 10 MB at 20 Mbit/s (n = 4 s): 10 s at the full link, 6 + 8 = 14 s at half of it
        SensitivityEstimate e = SensitivityEstimate.of(List.of(
                Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 1.0, 0),
                Observation.ofLinkBytes(14_000, 10_000_000, MBIT_20, 0.5, 0)));
        assertEquals(0.4, e.networkShare(), EPS);
        assertEquals(0, e.standardError(), EPS);
    }

    @Test
    void aLinkCannotHaveBeenBusyLongerThanTheUnitLasted() {
        // 30 MB at 20 Mbit/s need 12 s; the unit lasted 10 s: the link was its whole time, φ = 1
        Observation o = Observation.ofLinkBytes(10_000, 30_000_000, MBIT_20, 1.0, 30_000_000);
        assertEquals(10_000, o.networkWaitMillis());
        assertEquals(1.0, SensitivityEstimate.of(List.of(o)).networkShare(), EPS);
    }

    @Test
    void aUnitThatUsedMoreThanItsWeightHadAtLeastWhatItUsed() {
        // A shuffle beside an idle partner: 70 MB in 51 s under a weight of 5 %. At 20 Mbit/s the bytes need 28 s of
        // the full link, so it had at least 28/51 of it, all of its time was network, and n is the 28 s.
        Observation o = Observation.ofLinkBytes(51_000, 70_000_000, MBIT_20, 0.05, 70_000_000);
        assertEquals(28.0 / 51, o.share(), EPS);
        assertEquals(51_000, o.networkWaitMillis());
        assertEquals(28_000, o.networkMillisAtFullLink(), 1e-9);
        assertEquals(28_000, o.millisAtFullLink(), 1e-9);
        // beside 15 s of setup that moved nothing: Φ = 28/43, not the 2.55/17.55 the weight alone gave
        SensitivityEstimate e = SensitivityEstimate.of(List.of(
                Observation.ofLinkBytes(15_000, 0, MBIT_20, 0.05, 0), o));
        assertEquals(28.0 / 43, e.networkShare(), EPS);
        // a unit that used less than its weight keeps its weight as the share
        assertEquals(0.5, Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 0.5, 0).share(), EPS);
    }

    @Test
    void aUnitThatMovedNothingDilutesTheWorkload() {
        // A: 10 s, 4 s on its link; B: 10 s, nothing: Φ = 4/20 = 0.2
        SensitivityEstimate e = SensitivityEstimate.of(List.of(
                Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 1.0, 10_000_000),
                Observation.ofLinkBytes(10_000, 0, MBIT_20, 1.0, 0)));
        assertEquals(0.2, e.networkShare(), EPS);
    }

    @Test
    void anEstimateNamesTheSignalsItRestsOn() {
        Observation link = Observation.ofLinkBytes(10_000, 10_000_000, MBIT_20, 1.0, 0);
        Observation wait = new Observation(10_000, 4_000, 1.0, 0);
        assertEquals(Observation.Signal.NETWORK_WAIT, wait.signal());
        assertEquals("wait", SensitivityEstimate.of(List.of(wait)).signal());
        SensitivityEstimate mixed = SensitivityEstimate.of(List.of(link, wait));
        assertEquals("mixed", mixed.signal());
        assertEquals(1, mixed.linkObservations());
        assertEquals(0.4, mixed.networkShare(), EPS, "the same network time read either way");
    }

    @Test
    void nonsenseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Observation.ofLinkBytes(10_000, 1, 0, 1.0, 0));
        assertThrows(IllegalArgumentException.class, () -> Observation.ofLinkBytes(10_000, -1, MBIT_20, 1.0, 0));
        assertThrows(IllegalArgumentException.class, () -> Observation.ofLinkBytes(0, 1, MBIT_20, 1.0, 0));
        assertThrows(IllegalArgumentException.class, () -> Observation.ofLinkBytes(10_000, 1, MBIT_20, 0, 0));
    }
}
