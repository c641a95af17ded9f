package io.saba.controller.estimate;

import io.saba.core.estimate.Observation;
import io.saba.core.model.SensitivityModel;
import java.util.List;

/**
 * One workload's learned state as a snapshot of the log carries it: its observations, its drift counters and the
 * model put in force from them (null when none is).
 */
public record LearnedWorkload(String workload, List<Observation> window, int contradicting, int agreeing,
                              boolean drifting, SensitivityModel adopted) {
    public LearnedWorkload {
        window = List.copyOf(window);
    }
}
