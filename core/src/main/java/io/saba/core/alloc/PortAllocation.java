package io.saba.core.alloc;

import java.util.Map;

/**
 * What one switch output port is told: which queue each priority level present on the port uses, and each
 * queue's weight (fraction of the link; the weights of Saba's queues sum to C_Saba). {@code appWeights} keeps
 * the per-application weights the queue weights were summed from, for status pages and tests.
 *
 * @param port              the port
 * @param queueOfLevel      level → queue index (0-based, below the port's queue count)
 * @param queueWeights      weight per queue index, fractions of the link
 * @param appWeights        application id → its weight at this port
 * @param predictedSlowdown the sum of the port's applications' predicted slowdowns at their weights, as the
 *                          {@link PortWeightDecision} that chose them predicts it (NaN when unknown)
 */
public record PortAllocation(PortId port, Map<Integer, Integer> queueOfLevel, double[] queueWeights,
                             Map<String, Double> appWeights, double predictedSlowdown) {
    public PortAllocation {
        queueOfLevel = Map.copyOf(queueOfLevel);
        queueWeights = queueWeights.clone();
        appWeights = appWeights instanceof AppWeights ? appWeights : Map.copyOf(appWeights); // the former is immutable
    }

    /** An allocation stated by hand (tests, fabrics' own plans), with no predicted slowdown. */
    public PortAllocation(PortId port, Map<Integer, Integer> queueOfLevel, double[] queueWeights,
                          Map<String, Double> appWeights) {
        this(port, queueOfLevel, queueWeights, appWeights, Double.NaN);
    }

    @Override
    public double[] queueWeights() {
        return queueWeights.clone();
    }
}
