package io.saba.controller.estimate;

import io.saba.core.estimate.Observation;
import io.saba.core.model.SensitivityModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload's learned state as a snapshot of the log carries it: its observations, its drift counters, the
 * model put in force from them (null when none is), and what its co-run profile rests on: the usable units of its
 * last applications by application, least recently started first, and which application's first how many units
 * the profile was built from ("" and 0: none).
 */
public record LearnedWorkload(String workload, List<Observation> window, int contradicting, int agreeing,
                              boolean drifting, SensitivityModel adopted, Map<String, List<Observation>> runs,
                              String profiledApp, int profiledUnits) {
    public LearnedWorkload {
        window = List.copyOf(window);
        Map<String, List<Observation>> copy = new LinkedHashMap<>();
        runs.forEach((app, run) -> copy.put(app, List.copyOf(run)));
        runs = java.util.Collections.unmodifiableMap(copy);
    }

    /** A workload's state from a log written before co-run profiles were learnt. */
    public LearnedWorkload(String workload, List<Observation> window, int contradicting, int agreeing,
                           boolean drifting, SensitivityModel adopted) {
        this(workload, window, contradicting, agreeing, drifting, adopted, Map.of(), "", 0);
    }
}
