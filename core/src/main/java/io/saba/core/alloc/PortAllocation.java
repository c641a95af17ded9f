package io.saba.core.alloc;

import java.util.Map;

/**
 * What one switch output port is told: which queue each priority level present on the port uses, and each
 * queue's weight (fraction of the link; the weights of Saba's queues sum to C_Saba). {@code appWeights} keeps
 * the per-application Eq. 2 weights the queue weights were summed from, for status pages and tests.
 *
 * @param port         the port
 * @param queueOfLevel level → queue index (0-based, below the port's queue count)
 * @param queueWeights weight per queue index, fractions of the link
 * @param appWeights   application id → its Eq. 2 weight at this port
 */
public record PortAllocation(PortId port, Map<Integer, Integer> queueOfLevel, double[] queueWeights,
                             Map<String, Double> appWeights) {
    public PortAllocation {
        queueOfLevel = Map.copyOf(queueOfLevel);
        queueWeights = queueWeights.clone();
        appWeights = Map.copyOf(appWeights);
    }

    @Override
    public double[] queueWeights() {
        return queueWeights.clone();
    }
}
