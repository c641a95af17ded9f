package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The corun method's controller table: one the controller reads, with two levels that never swap. */
class CorunSetupTest {
    @Test
    void theControllerReadsItsTableAndTheProfiledWorkloadKeepsTheLowestLevel() {
        SensitivityTable written = CorunSetup.controllerTable();
        SensitivityTable read = SensitivityTableCodec.parse(SensitivityTableCodec.toJson(written), "controller-table");
        assertEquals(written.entries().keySet(), read.entries().keySet());
        Map<String, Integer> levels = CorunSetup.levels();
        assertEquals(1, levels.get(CorunSetup.PROFILED_KEY), levels.toString());
        assertTrue(levels.get(CorunSetup.COMPETITOR_KEY) > 1, levels.toString());
        assertEquals(Map.of(1, 0.9 * 0.25, 2, 0.9 * 0.75), new TestbedCorunWeights(null, null, 1, 2).weights(25));
    }
}
