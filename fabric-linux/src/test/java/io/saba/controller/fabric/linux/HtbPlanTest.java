package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.DscpMap;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HtbPlanTest {
    private static final long LINK = 100_000_000L;
    private static final PortId PORT = new PortId("sw", 1);

    private static PortAllocation alloc(Map<Integer, Integer> queueOfLevel, double... w) {
        return new PortAllocation(PORT, queueOfLevel, w, Map.of());
    }

    @Test
    void ratesAreWeightsOfTheLinkAndQuantaFollowTheWeights() {
        HtbPlan p = HtbPlan.of(alloc(Map.of(1, 0, 2, 1, 3, 2), 0.6, 0.3, 0.1), LINK, 1.0, DscpMap.classSelectors());
        assertEquals(60_000_000L, p.queues().get(0).rateBps());
        assertEquals(30_000_000L, p.queues().get(1).rateBps());
        assertEquals(10_000_000L, p.queues().get(2).rateBps());
        assertEquals("1:20", p.queues().get(0).classId());
        // Spare bandwidth is lent by quantum: 6 : 3 : 1, the smallest one frame.
        assertEquals(1514 * 6, p.queues().get(0).quantum());
        assertEquals(1514 * 3, p.queues().get(1).quantum());
        assertEquals(1514, p.queues().get(2).quantum());
        assertEquals(Map.of(8, 0, 16, 1, 24, 2), p.queueOfDscp());
        // C_Saba = 1 leaves the non-Saba class only the minimum HTB needs.
        assertEquals(Math.round(HtbPlan.MIN_SHARE * LINK), p.nonSaba().rateBps());
        assertEquals(83, p.leafLimit());
    }

    @Test
    void nonSabaClassGetsTheRestOfTheLink() {
        HtbPlan p = HtbPlan.of(alloc(Map.of(1, 0), 0.8), LINK, 0.8, DscpMap.classSelectors());
        assertEquals(20_000_000L, p.nonSaba().rateBps());
        assertEquals("1:10", p.nonSaba().classId());
        // C_Saba here is only a bound: the non-Saba class holds whatever the queues leave.
        assertEquals(20_000_000L, HtbPlan.of(alloc(Map.of(1, 0), 0.8), LINK, 1.0, DscpMap.classSelectors())
                .nonSaba().rateBps());
    }

    @Test
    void aWeightAHairAboveTheLinkFromRoundingIsTheLink() {
        // the controller's default model at c-saba 1 summed two applications' weights into one queue and got
        // 1.0000000000000002 (fig1b csaba1-1129): every push was refused and the ports kept the plain link
        double whole = Math.nextUp(1.0);
        HtbPlan p = HtbPlan.of(alloc(Map.of(0, 0, 1, 1), 0, whole), LINK, 1.0, DscpMap.classSelectors());
        assertEquals(LINK, p.queues().get(0).rateBps());
        assertThrows(IllegalArgumentException.class,
                () -> HtbPlan.of(alloc(Map.of(0, 0, 1, 1), 0, 1.001), LINK, 1.0, DscpMap.classSelectors()),
                "a real excess is still refused");
    }

    @Test
    void levelsOnTheDefaultDscpGetNoFilter() {
        // Level 0 is DSCP 0, what untagged traffic carries: it must stay in the non-Saba class.
        HtbPlan p = HtbPlan.of(alloc(Map.of(0, 0, 2, 1), 0.5, 0.5), LINK, 1.0, DscpMap.classSelectors());
        assertEquals(Map.of(16, 1), p.queueOfDscp());
    }

    @Test
    void theControllersDefaultQueueIsTheNonSabaClass() {
        // The core's plans put level 0 in queue 0 with 1 - C_Saba, so a port's weights sum to the whole link.
        // Queue 0 carries no Saba DSCP: its share is the non-Saba class's, and only queues 1.. count toward C_Saba.
        HtbPlan p = HtbPlan.of(alloc(Map.of(0, 0, 1, 1, 2, 2), 0.1, 0.6, 0.3), LINK, 0.9, DscpMap.classSelectors());
        assertEquals(10_000_000L, p.nonSaba().rateBps());
        assertEquals(2, p.queues().size());
        assertEquals("1:21", p.queues().get(0).classId());
        assertEquals(60_000_000L, p.queues().get(0).rateBps());
        assertEquals(Map.of(8, 1, 16, 2), p.queueOfDscp());
        // Saba's queues above C_Saba are still refused, naming the bound.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HtbPlan.of(
                alloc(Map.of(0, 0, 1, 1, 2, 2), 0.05, 0.65, 0.3), LINK, 0.9, DscpMap.classSelectors()));
        assertTrue(e.getMessage().contains("C_Saba"), e.getMessage());
    }

    @Test
    void levelsSharingAQueueShareItsFilterTarget() {
        HtbPlan p = HtbPlan.of(alloc(Map.of(1, 0, 2, 0, 3, 1), 0.7, 0.3), LINK, 1.0, DscpMap.classSelectors());
        assertEquals(Map.of(8, 0, 16, 0, 24, 1), p.queueOfDscp());
    }

    @Test
    void rejectsWhatCannotBeInstalled() {
        DscpMap m = DscpMap.classSelectors();
        IllegalArgumentException over = assertThrows(IllegalArgumentException.class,
                () -> HtbPlan.of(alloc(Map.of(1, 0, 2, 1), 0.6, 0.5), LINK, 1.0, m));
        assertTrue(over.getMessage().contains("above C_Saba"), over.getMessage());
        assertThrows(IllegalArgumentException.class, () -> HtbPlan.of(alloc(Map.of(1, 3), 0.5), LINK, 1.0, m));
        assertThrows(IllegalArgumentException.class, () -> HtbPlan.of(alloc(Map.of(1, 0), Double.NaN), LINK, 1.0, m));
        assertThrows(IllegalArgumentException.class, () -> HtbPlan.of(alloc(Map.of(1, 0), -0.1), LINK, 1.0, m));
    }

    @Test
    void baselineIsOneFifoAtTheLinkRate() {
        HtbPlan b = HtbPlan.baseline(LINK);
        assertEquals(LINK, b.nonSaba().rateBps());
        assertTrue(b.queues().isEmpty());
        assertTrue(b.queueOfDscp().isEmpty());
    }

    @Test
    void leafBufferIsAboutTenMillisecondsWithAFloor() {
        assertEquals(16, HtbPlan.leafLimit(1_000_000L, HtbPlan.DEFAULT_BUFFER_SECONDS));
        assertEquals(826, HtbPlan.leafLimit(1_000_000_000L, HtbPlan.DEFAULT_BUFFER_SECONDS));
    }

    @Test
    void aClassMayCatchUpTenMillisecondsOfItsRate() {
        assertEquals(125_000, HtbPlan.burstBytes(100_000_000L));
        assertEquals(1600, HtbPlan.burstBytes(1_000_000L), "never below a frame");
    }

    @Test
    void aDeeperBufferHoldsMoreOfTheLinkAndABadOneIsRefusedByName() {
        // 30 ms of 100 Mbit/s is 375,000 bytes: 248 full frames
        assertEquals(248, HtbPlan.leafLimit(LINK, 0.030));
        assertEquals(248, HtbPlan.of(alloc(Map.of(1, 0), 0.5), LINK, 1.0, DscpMap.classSelectors(), 0.030)
                .leafLimit());
        for (double bad : new double[] {0, -0.01, 1.5, Double.NaN}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> HtbPlan.checkBuffer(bad, "the queue buffer"));
            assertTrue(e.getMessage().startsWith("the queue buffer must be a time in (0, 1000] ms"), e.getMessage());
        }
    }
}
