package io.saba.core.estimate;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayDeque;
import java.util.List;

/**
 * One workload's recent observations, its estimate, and whether they have drifted from its profile. Observations
 * are kept per workload, across its applications: an estimate learnt from one run carries over to the next, and a
 * unit reported after its application left still counts.
 *
 * <p>Drift: after each observation the estimate over the window is checked against the table
 * ({@link ModelDrift}) once the window holds {@link ModelDrift#MIN_UNITS} units; {@link #DRIFT_UNITS} contradictions
 * in a row raise the flag, as many agreements in a row clear it. A workload without a table entry cannot drift. Not
 * thread-safe.
 */
public final class WorkloadEstimator {
    /** Observations kept: a few runs of a batch job, the recent rounds of an iterative one. */
    public static final int KEEP = 64;
    /** Consecutive units that must contradict (or agree with) the table to raise (or clear) the flag. */
    public static final int DRIFT_UNITS = 3;

    private final ArrayDeque<Observation> window = new ArrayDeque<>(KEEP);
    private SensitivityEstimate estimate;
    private int contradicting;
    private int agreeing;
    private boolean drifting;

    /** What an observation did to the drift flag. */
    public enum Change { NONE, DRIFT_STARTED, DRIFT_ENDED }

    public WorkloadEstimator() {
    }

    /** A workload's state as {@link #window}, {@link #contradicting}, {@link #agreeing} and {@link #drifting} say. */
    public static WorkloadEstimator restore(List<Observation> window, int contradicting, int agreeing,
                                            boolean drifting) {
        WorkloadEstimator w = new WorkloadEstimator();
        for (Observation o : window.subList(Math.max(0, window.size() - KEEP), window.size())) {
            w.window.addLast(o);
        }
        w.estimate = SensitivityEstimate.of(w.window);
        w.contradicting = contradicting;
        w.agreeing = agreeing;
        w.drifting = drifting;
        return w;
    }

    /**
     * Adds an observation (the oldest leaves a full window) and checks the new estimate against the table.
     *
     * @param table the workload's profiled model, or null when it has none
     */
    public Change add(Observation o, SensitivityModel table) {
        if (window.size() == KEEP) {
            window.removeFirst();
        }
        window.addLast(o);
        estimate = SensitivityEstimate.of(window);
        if (table == null) {
            contradicting = 0;
            agreeing = 0;
            boolean was = drifting;
            drifting = false;
            return was ? Change.DRIFT_ENDED : Change.NONE;
        }
        if (!ModelDrift.judges(estimate)) {
            return Change.NONE;
        }
        if (ModelDrift.worst(estimate, table).contradicts()) {
            contradicting++;
            agreeing = 0;
            if (!drifting && contradicting >= DRIFT_UNITS) {
                drifting = true;
                return Change.DRIFT_STARTED;
            }
        } else {
            agreeing++;
            contradicting = 0;
            if (drifting && agreeing >= DRIFT_UNITS) {
                drifting = false;
                return Change.DRIFT_ENDED;
            }
        }
        return Change.NONE;
    }

    /** The estimate over the window, or null before any observation. */
    public SensitivityEstimate estimate() {
        return estimate;
    }

    /** How the estimate compares with the table now (null without an estimate or a table). */
    public ModelDrift.Deviation deviation(SensitivityModel table) {
        return estimate == null || table == null ? null : ModelDrift.worst(estimate, table);
    }

    /** The observations kept, oldest first. */
    public List<Observation> window() {
        return List.copyOf(window);
    }

    /** Whether the observations contradict the table (the flag). */
    public boolean drifting() {
        return drifting;
    }

    /** Consecutive observations after which the estimate contradicted the table, up to now. */
    public int contradicting() {
        return contradicting;
    }

    /** Consecutive observations after which it agreed. */
    public int agreeing() {
        return agreeing;
    }
}
