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
    /**
     * One weighted queue: its weight and the groups in it.
     *
     * @param fifo true when the queue is one FIFO input buffer of a lossless switch: a packet at its head that
     *             cannot leave blocks those behind it, so all its flows advance at the rate of the slowest
     *             (head-of-line blocking); what the queue cannot use goes to the other queues
     */
    public record Queue(double weight, int[] members, boolean fifo) {
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
        classes.get(classes.size() - 1).add(new Queue(weight, members.clone(), false));
        return this;
    }

    /** The same schedule with every queue a head-of-line-blocking FIFO (see {@link Queue#fifo}). */
    public PortSchedule asFifoBuffers() {
        PortSchedule s = new PortSchedule();
        for (List<Queue> cls : classes) {
            List<Queue> copy = new ArrayList<>();
            for (Queue q : cls) {
                copy.add(new Queue(q.weight(), q.members(), true));
            }
            s.classes.add(copy);
        }
        return s;
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
                double slowest = Double.POSITIVE_INFINITY;
                double flows = 0;
                for (int g : cls.get(q).members()) {
                    qDemand[q] += multiplicity[g] * demand[g];
                    slowest = Math.min(slowest, demand[g]);
                    flows += multiplicity[g];
                }
                if (cls.get(q).fifo()) {
                    // every flow of a FIFO moves at the slowest one's pace, so it can use no more than this
                    qDemand[q] = Math.min(qDemand[q], slowest * flows);
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
                double[] agg = cls.get(q).fifo() ? lockstep(qShare[q], w, d) : WaterFill.fill(qShare[q], w, d);
                for (int k = 0; k < members.length; k++) {
                    perFlow[members[k]] = agg[k] / multiplicity[members[k]];
                    left -= agg[k];
                }
            }
        }
        return perFlow;
    }

    /** A FIFO's share split so that every flow gets the same rate, bounded by the slowest flow's demand. */
    private static double[] lockstep(double share, double[] flows, double[] aggregateDemand) {
        double total = 0;
        double perFlow = Double.POSITIVE_INFINITY;
        for (int k = 0; k < flows.length; k++) {
            total += flows[k];
            perFlow = Math.min(perFlow, aggregateDemand[k] / flows[k]);
        }
        perFlow = Math.min(perFlow, share / total);
        double[] out = new double[flows.length];
        for (int k = 0; k < flows.length; k++) {
            out[k] = perFlow * flows[k];
        }
        return out;
    }
}
