package io.saba.harness.packet;

import io.saba.harness.sim.workload.HibenchCatalog;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadCalibration;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What shape the packet-level Fig. 8 gives the ten workloads. Both keep {@link HibenchCatalog}'s sensitivity: each
 * round's network time at line rate is the share s of the round that the paper's profiles call for, and its
 * overlap with the compute, so alone on the profiled nodes at full rate a workload takes its profiled time and its
 * slowdown at share b is the catalog's. They differ in how many rounds there are and where the bytes go.
 */
public enum WorkloadShapes {
    /** The catalog's: a few rounds, each an all-to-all shuffle among the job's instances. */
    HIBENCH,
    /**
     * As the workloads ran on the testbed ({@code examples/workload-records/records.csv}): the rounds that moved data,
     * and for LR and SVM, whose bytes were task results and broadcasts, not shuffles, a driver round: a broadcast out
     * of instance 0, the computation, then the results into it, split as the records split them.
     */
    RECORDED;

    /**
     * The records' numbers: rounds that moved ≥ 64 KiB ({@code network_rounds}), and for the driver-centred ones the
     * bytes out of the driver (what Spark does not meter, {@code unmetered_mb}) per byte of task results into it
     * ({@code task_result_mb}); 0 for a shuffle. {@code WorkloadShapesTest} checks them against the CSV.
     */
    record Recorded(int networkRounds, double broadcastPerResult) {
    }

    static final Map<String, Recorded> RECORDS = Map.of(
            "lr", new Recorded(12, 72.8 / 90.2),
            "rf", new Recorded(7, 0),
            "gbt", new Recorded(51, 0),
            "svm", new Recorded(25, 80.8 / 87.1),
            "nutchindexing", new Recorded(2, 0),
            "nweight", new Recorded(5, 0),
            "pagerank", new Recorded(13, 0),
            "sql", new Recorded(2, 0),
            "wordcount", new Recorded(2, 0),
            "sort", new Recorded(1, 0));

    /** The name {@code --workloads} takes. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static WorkloadShapes parse(String s) {
        for (WorkloadShapes w : values()) {
            if (w.key().equals(s)) {
                return w;
            }
        }
        throw new IllegalArgumentException("--workloads must be hibench or recorded, got '" + s + "'");
    }

    /**
     * The workloads in {@link HibenchCatalog}'s order (the draws depend on it), every time multiplied by
     * {@code timeScale}, for hosts of {@code lineRate} bytes per second.
     */
    public List<WorkloadSpec> specs(double timeScale, double lineRate) {
        List<WorkloadSpec> out = new ArrayList<>();
        for (WorkloadCalibration c : HibenchCatalog.calibrations()) {
            Recorded r = RECORDS.get(c.name());
            int rounds = this == RECORDED ? r.networkRounds() : c.stageRuns();
            WorkloadCalibration scaled = new WorkloadCalibration(c.name(), c.profiledSeconds() * timeScale,
                    c.shuffleShare(), c.overlap(), rounds);
            WorkloadSpec w = scaled.toSpec(HibenchCatalog.PROFILED_NODES, lineRate);
            out.add(this == RECORDED && r.broadcastPerResult() > 0 ? throughDriver(w, scaled, lineRate,
                    r.broadcastPerResult()) : w);
        }
        return out;
    }

    /**
     * {@code w} with its round made a driver round: the round's network time at line rate, s of it, is what the
     * driver's link carries, split between the broadcast out and the results in as the records split them.
     */
    private static WorkloadSpec throughDriver(WorkloadSpec w, WorkloadCalibration c, double lineRate, double ratio) {
        StageSpec st = w.stages().get(0);
        double round = c.profiledSeconds() / c.stageRuns();
        double bytes = c.shuffleShare() * round * lineRate;
        double results = bytes / (1 + ratio);
        StageSpec driver = new StageSpec(st.repeat(), st.computeSeconds(), results, st.overlap(),
                StageSpec.Exchange.DRIVER, bytes - results);
        return new WorkloadSpec(w.name(), w.profiledNodes(), w.fixedSecondsPerStage(), w.sendCapFraction(),
                List.of(driver));
    }
}
