package io.saba.harness.sim.engine;

import java.util.Map;

/**
 * What a simulation produced.
 *
 * @param completionSeconds job id → completion time (all jobs start at time 0)
 * @param events            number of events processed (for benchmarks)
 * @param rateSolves        number of rate recomputations (for benchmarks)
 */
public record SimResult(Map<String, Double> completionSeconds, long events, long rateSolves) {
    public SimResult {
        completionSeconds = Map.copyOf(completionSeconds);
    }
}
