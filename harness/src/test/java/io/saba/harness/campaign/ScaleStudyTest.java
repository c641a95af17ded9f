package io.saba.harness.campaign;

import io.saba.core.model.ModelChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.topology.Topologies;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.workload.SyntheticCatalog;
import io.saba.harness.sim.workload.WorkloadCalibration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Fig. 10 / 11 machinery on a 40-server spine-leaf (the 1,944-server runs belong to the CLI). */
class ScaleStudyTest {
    private final TopologyNetwork small =
            new TopologyNetwork(Topologies.spineLeaf(2, 2, 2, 10, 2, 2, 56, 16), 56);

    @Test
    void syntheticWorkloadsSpanInsensitiveToSensitive() {
        List<WorkloadCalibration> cs = SyntheticCatalog.calibrations();
        assertEquals(20, cs.size());
        double min = cs.stream().mapToDouble(c -> c.expectedSlowdown(0.25)).min().orElseThrow();
        double max = cs.stream().mapToDouble(c -> c.expectedSlowdown(0.25)).max().orElseThrow();
        assertTrue(min < 1.3 && max > 3, "range at 25 %: " + min + " .. " + max);
    }

    @Test
    void everySchemeOfFigures10And11RunsAndIsComparedToTheBaseline() {
        ScaleStudy study = new ScaleStudy(small, 2, 1, ModelChoice.AUTO);
        for (String fig : List.of("fig10", "fig11a", "fig11b")) {
            List<ScaleStudy.Scheme> schemes = study.run(fig, 2, null);
            assertEquals(ScaleStudy.paperMeans(fig).isEmpty() ? 0 : study.schemes(fig).size() + 1, schemes.size());
            for (ScaleStudy.Scheme s : schemes.subList(1, schemes.size())) {
                assertEquals(20, s.rows().size(), s.name());
                assertTrue(s.mean() > 0.2 && s.mean() < 5, s.name() + " " + s.mean());
            }
            assertTrue(ScaleStudy.report(fig, schemes).contains("paper"));
        }
        assertEquals(study.run("fig11a", 1, null).get(2).rows(), study.run("fig11a", 2, null).get(2).rows(),
                "same result on any thread count");
    }
}
