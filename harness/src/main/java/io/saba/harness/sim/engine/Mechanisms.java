package io.saba.harness.sim.engine;

import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.workload.JobSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulation models beyond ideal fluid sharing, each switched on by an option and applied to both runs of a
 * comparison (they are properties of the fabric and the machine, not of an allocation). Serializable: a Spark
 * executor runs a testbed campaign's setups with them.
 *
 * @param headOfLineBlocking lossless input buffers as FIFOs ({@link Simulation#Simulation(FlowNetwork, List,
 *                           PolicyFactory, boolean)})
 * @param sharedCores        more than 0: every host computes on one pool of that many cores
 *                           ({@link Simulation#sharedCores}); 0: each instance on cores of its own
 * @param queueing           the wait of synchronous rounds in shared queues ({@link Simulation#queueingDelay}),
 *                           or null for none
 */
public record Mechanisms(boolean headOfLineBlocking, double sharedCores, QueueingDelay queueing)
        implements Serializable {
    public static final Mechanisms NONE = new Mechanisms(false, 0, null);

    public Mechanisms {
        if (!(sharedCores >= 0) || Double.isInfinite(sharedCores)) {
            throw new IllegalArgumentException("shared cores must be 0 (a host of its own each) or more, not "
                    + sharedCores);
        }
    }

    public Mechanisms withHeadOfLineBlocking(boolean on) {
        return new Mechanisms(on, sharedCores, queueing);
    }

    public Mechanisms withSharedCores(double cores) {
        return new Mechanisms(headOfLineBlocking, cores, queueing);
    }

    public Mechanisms withQueueing(QueueingDelay delay) {
        return new Mechanisms(headOfLineBlocking, sharedCores, delay);
    }

    /** A simulation of the jobs under the policy with these mechanisms on. */
    public Simulation simulation(FlowNetwork network, List<JobSpec> jobs, PolicyFactory policy) {
        Simulation s = new Simulation(network, jobs, policy, headOfLineBlocking);
        if (sharedCores > 0) {
            s.sharedCores(sharedCores);
        }
        if (queueing != null) {
            s.queueingDelay(queueing);
        }
        return s;
    }

    /**
     * For a campaign's fingerprint: the mechanisms switched on, each with a leading space as its option names it
     * (" hol-blocking shared-cores=2 queueing-delay=infiniband"), empty for none.
     */
    public String fingerprint() {
        return (headOfLineBlocking ? " hol-blocking" : "")
                + (sharedCores > 0 ? " shared-cores=" + fmt(sharedCores) : "")
                + (queueing != null ? " queueing-delay=" + queueing.name() : "");
    }

    /** For reports: e.g. "all hosts computing on one pool of 2 cores, testbed queueing delay". */
    public String describe() {
        List<String> on = new ArrayList<>();
        if (headOfLineBlocking) {
            on.add("head-of-line blocking");
        }
        on.add(sharedCores > 0 ? "all hosts computing on one pool of " + fmt(sharedCores)
                + (sharedCores == 1 ? " core" : " cores")
                : "each host computing on cores of its own");
        on.add(queueing == null ? "no queueing delay" : queueing.name() + " queueing delay");
        return String.join(", ", on);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
