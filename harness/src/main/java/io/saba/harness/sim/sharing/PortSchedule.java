package io.saba.harness.sim.sharing;

import java.util.ArrayList;
import java.util.List;

/**
 * How one port serves the flow groups crossing it: strict-priority classes (first served first), each a set of
 * weighted round-robin queues, each holding flow groups whose flows share the queue's bandwidth equally.
 *
 * <p>Members are indices into the port's list of groups; a group is counted with its number of flows on the port
 * (its multiplicity), because fairness inside a queue is per flow. Built once per port per rate computation.
 */
public final class PortSchedule {
    /** One weighted queue: its weight and the groups in it. */
    public record Queue(double weight, int[] members) {
    }

    private final List<List<Queue>> classes = new ArrayList<>();

    /** Starts a new priority class below the existing ones. */
    public PortSchedule newClass() {
        classes.add(new ArrayList<>());
        return this;
    }

    /** Adds a queue to the lowest class so far (creating the first class if needed). */
    public PortSchedule queue(double weight, int... members) {
        if (classes.isEmpty()) {
            newClass();
        }
        if (!(weight >= 0) || Double.isInfinite(weight)) {
            throw new IllegalArgumentException("queue weight must be finite and ≥ 0, got " + weight);
        }
        classes.get(classes.size() - 1).add(new Queue(weight, members.clone()));
        return this;
    }

    /** A single FIFO-fair queue holding every group: per-flow fairness on this port. */
    public static PortSchedule oneQueue(int groups) {
        int[] all = new int[groups];
        for (int i = 0; i < groups; i++) {
            all[i] = i;
        }
        return new PortSchedule().queue(1.0, all);
    }

    public List<List<Queue>> classes() {
        return classes;
    }

    /**
     * Divides the capacity: per-flow rates for each group given each group's per-flow demand.
     *
     * @param capacity     port capacity
     * @param multiplicity flows of each group on this port (&gt; 0)
     * @param demand       per-flow demand of each group (what the rest of the network would let it send)
     * @return per-flow rate each group gets here
     */
    public double[] allocate(double capacity, double[] multiplicity, double[] demand) {
        double[] perFlow = new double[multiplicity.length];
        double left = capacity;
        for (List<Queue> cls : classes) {
            if (left <= 0) {
                break;
            }
            double[] qWeights = new double[cls.size()];
            double[] qDemand = new double[cls.size()];
            for (int q = 0; q < cls.size(); q++) {
                // A zero weight still gets leftovers (work conservation), just after everyone else.
                qWeights[q] = Math.max(cls.get(q).weight(), 1e-9);
                for (int g : cls.get(q).members()) {
                    qDemand[q] += multiplicity[g] * demand[g];
                }
            }
            double[] qShare = WaterFill.fill(left, qWeights, qDemand);
            for (int q = 0; q < cls.size(); q++) {
                int[] members = cls.get(q).members();
                double[] w = new double[members.length];
                double[] d = new double[members.length];
                for (int k = 0; k < members.length; k++) {
                    w[k] = multiplicity[members[k]];
                    d[k] = multiplicity[members[k]] * demand[members[k]];
                }
                double[] agg = WaterFill.fill(qShare[q], w, d);
                for (int k = 0; k < members.length; k++) {
                    perFlow[members[k]] = agg[k] / multiplicity[members[k]];
                    left -= agg[k];
                }
            }
        }
        return perFlow;
    }
}
