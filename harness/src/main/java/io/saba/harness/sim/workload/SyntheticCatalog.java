package io.saba.harness.sim.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The paper's 20 synthetic workloads for the 1,944-server study (§8.1, §8.4): compute and shuffle stages whose
 * amounts, overlap and count vary so that sensitivities span insensitive to highly sensitive. The paper gives no
 * parameters, so they are drawn from a fixed seed: shuffle share s uniform in [0.05, 0.9], overlap o uniform in
 * [0, 0.9] (capped so the shuffle starts after the fixed overhead), 2–10 stage runs, 60–300 s alone on the
 * profiled 18 nodes (one rack).
 */
public final class SyntheticCatalog {
    /** The paper profiles the synthetic workloads on one rack of 18 servers. */
    public static final int PROFILED_NODES = 18;
    public static final int COUNT = 20;
    private static final long SEED = 0x5AB4_2023L;

    private SyntheticCatalog() {
    }

    public static List<WorkloadCalibration> calibrations() {
        SplittableRandom rnd = new SplittableRandom(SEED);
        List<WorkloadCalibration> out = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            double s = 0.05 + 0.85 * rnd.nextDouble();
            double o = 0.9 * rnd.nextDouble();
            int runs = 2 + rnd.nextInt(9);
            double t1 = 60 + 240 * rnd.nextDouble();
            WorkloadCalibration c = new WorkloadCalibration(String.format("syn%02d", i), t1, s, o, runs);
            // the shuffle must start after the fixed overhead: (1 - o)·c ≥ FIXED_SHARE
            while ((1 - c.overlap()) * c.computeShare() < WorkloadCalibration.FIXED_SHARE) {
                c = new WorkloadCalibration(c.name(), t1, s, c.overlap() * 0.8, runs);
            }
            out.add(c);
        }
        return out;
    }

    public static List<WorkloadSpec> specs(double lineRate) {
        List<WorkloadSpec> out = new ArrayList<>();
        for (WorkloadCalibration c : calibrations()) {
            out.add(c.toSpec(PROFILED_NODES, lineRate));
        }
        return out;
    }
}
