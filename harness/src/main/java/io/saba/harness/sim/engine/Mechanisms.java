package io.saba.harness.sim.engine;

import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.workload.JobSpec;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What a simulation models beyond ideal fluid sharing, each switched on by an option and applied to both runs of a
 * comparison (they are properties of the fabric and the machine, not of an allocation), except a Saba run's own
 * cores, which only the policy's run pays. Serializable: a Spark executor runs a testbed campaign's setups with
 * them.
 *
 * @param headOfLineBlocking lossless input buffers as FIFOs ({@link Simulation#Simulation(FlowNetwork, List,
 *                           PolicyFactory, boolean)})
 * @param sharedCores        more than 0: every host computes on one pool of that many cores
 *                           ({@link Simulation#sharedCores}); 0: each instance on cores of its own
 * @param queueing           the wait of synchronous rounds in shared queues ({@link Simulation#queueingDelay}),
 *                           or null for none
 * @param sabaRunCores       the cores of the shared pool that a Saba run's own processes (the controller, the
 *                           {@code tc} it runs, the plugins in every driver and executor) keep busy while its jobs
 *                           run: the one mechanism applied to the policy's run only ({@link #policySimulation}),
 *                           since the baseline runs plain Spark; 0 for none
 */
public record Mechanisms(boolean headOfLineBlocking, double sharedCores, QueueingDelay queueing, double sabaRunCores)
        implements Serializable {
    public static final Mechanisms NONE = new Mechanisms(false, 0, null, 0);

    public Mechanisms {
        if (!(sharedCores >= 0) || Double.isInfinite(sharedCores)) {
            throw new IllegalArgumentException("shared cores must be 0 (a host of its own each) or more, not "
                    + sharedCores);
        }
        if (!(sabaRunCores >= 0) || (sabaRunCores > 0 && !(sabaRunCores < sharedCores))) {
            throw new IllegalArgumentException("a Saba run's own cores must be 0 or more and fewer than the shared "
                    + "pool's (" + fmt(sharedCores) + "), not " + sabaRunCores);
        }
    }

    public Mechanisms withHeadOfLineBlocking(boolean on) {
        return new Mechanisms(on, sharedCores, queueing, sabaRunCores);
    }

    public Mechanisms withSharedCores(double cores) {
        return new Mechanisms(headOfLineBlocking, cores, queueing, sabaRunCores);
    }

    public Mechanisms withQueueing(QueueingDelay delay) {
        return new Mechanisms(headOfLineBlocking, sharedCores, delay, sabaRunCores);
    }

    public Mechanisms withSabaRunCores(double cores) {
        return new Mechanisms(headOfLineBlocking, sharedCores, queueing, cores);
    }

    /** A simulation of the jobs under the policy with these mechanisms on: the baseline's run of a comparison. */
    public Simulation simulation(FlowNetwork network, List<JobSpec> jobs, PolicyFactory policy) {
        return simulation(network, jobs, policy, sharedCores);
    }

    /**
     * The policy's run of a comparison, a run on Saba's plugins and controller: as {@link #simulation}, with the
     * pool short of {@code sabaRunCores}. Saba's processes do a roughly steady amount of work per second (reads a
     * second per port, reports, the controller's passes), so they take their cores whatever the jobs ask, and the
     * jobs share the rest.
     */
    public Simulation policySimulation(FlowNetwork network, List<JobSpec> jobs, PolicyFactory policy) {
        return simulation(network, jobs, policy, sharedCores - sabaRunCores);
    }

    private Simulation simulation(FlowNetwork network, List<JobSpec> jobs, PolicyFactory policy, double cores) {
        Simulation s = new Simulation(network, jobs, policy, headOfLineBlocking);
        if (sharedCores > 0) {
            s.sharedCores(cores);
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
                + (queueing != null ? " queueing-delay=" + queueing.name() : "")
                + (sabaRunCores > 0 ? " saba-run-cores=" + fmt(sabaRunCores) : "");
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
        if (sabaRunCores > 0) {
            on.add(fmt(sabaRunCores) + " of the cores busy with Saba's own processes in its runs");
        }
        return String.join(", ", on);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
