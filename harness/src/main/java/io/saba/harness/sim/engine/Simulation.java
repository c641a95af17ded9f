package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One fluid simulation: jobs on a network under a policy, all starting at time 0; returns each job's completion
 * time. Single-threaded and free of shared state, so many run in parallel.
 *
 * <p>A stage run of a job with n instances and dataset scale d: compute time = fixed + c·d·P/n (P = profiled
 * nodes); the shuffle (d·S bytes, n² equal parts, the n diagonal ones local) starts after the fixed part and
 * (1 − overlap) of the scaled compute, and the stage ends when both compute and shuffle are done.
 *
 * <p>This class holds the event loop and the jobs' way through their stages; the groups' rates come from a
 * {@link RateSolver}, a round's queueing wait from {@link RoundWaits}, and what a run records on request from
 * {@link EgressTrace}, {@link PortLoads} and {@link StageRun}.
 */
public final class Simulation {
    private static final double EPS = 1e-9;

    private final FlowNetwork network;
    private final SharingPolicy policy;
    private final RateSolver rates;
    private final List<SimJob> jobs = new ArrayList<>();
    private final EventQueue queue = new EventQueue();
    private final List<FlowGroup> active = new ArrayList<>();
    private final Map<SimJob, JobState> states = new HashMap<>();
    private final Map<String, Double> completion = new LinkedHashMap<>();
    private long events;
    private long solves;
    private double now;
    private boolean ratesStale = true;
    private CpuPool cpu;
    private RoundWaits roundWaits;
    private EgressTrace egress;
    private PortLoads loads;
    private List<StageRun> stageRuns;

    public Simulation(FlowNetwork network, List<JobSpec> specs, PolicyFactory policyFactory) {
        this(network, specs, policyFactory, false);
    }

    /**
     * @param headOfLineBlocking model the input buffers of a lossless switch as FIFOs: the flows leaving a host
     *                           NIC in the same queue (the same VL of the switch's input buffer) advance at the
     *                           pace of the slowest of them, and what that queue cannot use goes to the other
     *                           queues. This is InfiniBand's congestion spreading; it applies to every policy,
     *                           since it is a property of the switch, not of the allocation.
     */
    public Simulation(FlowNetwork network, List<JobSpec> specs, PolicyFactory policyFactory, boolean headOfLineBlocking) {
        this.network = network;
        for (int i = 0; i < specs.size(); i++) {
            jobs.add(new SimJob(specs.get(i), i, network));
        }
        this.policy = policyFactory.create(network);
        this.rates = new RateSolver(network, policy, headOfLineBlocking);
    }

    /**
     * Records what leaves one port over the run (the simulated profiler's view of a host's egress counter), for
     * {@link #egressUtilisation} after {@link #run}.
     */
    public Simulation traceEgress(PortId port) {
        this.egress = new EgressTrace(port);
        return this;
    }

    /**
     * Runs every job's computation on one pool of {@code cores} shared by all hosts (see {@link CpuPool}), as on a
     * namespace testbed, instead of each instance computing at full speed on a host of its own.
     */
    public Simulation sharedCores(double cores) {
        this.cpu = new CpuPool(cores);
        return this;
    }

    /** Records what every port carries over the run, for {@link #portLoads} after {@link #run}. */
    public Simulation tracePortLoads() {
        this.loads = new PortLoads();
        return this;
    }

    /**
     * Records every stage run of every job (when its parts started and ended, what its shuffle moved), for
     * {@link #stageRuns} after {@link #run}: what the engines' task metrics would show of the run.
     */
    public Simulation traceStageRuns() {
        this.stageRuns = new ArrayList<>();
        return this;
    }

    /** The stage runs in the order they ended. */
    public List<StageRun> stageRuns() {
        if (stageRuns == null) {
            throw new IllegalStateException("stage runs not traced: call traceStageRuns before run");
        }
        return List.copyOf(stageRuns);
    }

    public PortLoads portLoads() {
        if (loads == null) {
            throw new IllegalStateException("port loads not traced: call tracePortLoads before run");
        }
        return loads;
    }

    /**
     * Charges every synchronous round (a stage run with a shuffle) the wait its messages meet behind other
     * applications' buffered data in their queue, there and back, on the hops of its slowest pair of hosts (see
     * {@link QueueingDelay}). The round ends that much after its last byte.
     */
    public Simulation queueingDelay(QueueingDelay delay) {
        this.roundWaits = delay == null ? null : new RoundWaits(network, policy, delay);
        return this;
    }

    /**
     * The traced port's utilisation per interval of {@code intervalSeconds} from 0 to the last completion: what
     * the testbed profiler's traffic record samples from a byte counter.
     */
    public double[] egressUtilisation(double intervalSeconds) {
        if (egress == null) {
            throw new IllegalStateException("no port traced: call traceEgress before run");
        }
        return egress.utilisation(now, intervalSeconds, network);
    }

    public SimResult run() {
        for (SimJob j : jobs) {
            states.put(j, new JobState());
        }
        policy.onJobsChanged(List.copyOf(jobs), 0);
        for (SimJob j : jobs) {
            startStageRun(j);
        }
        while (!queue.isEmpty() || !active.isEmpty() || (cpu != null && cpu.busy())) {
            if (ratesStale) {
                recomputeRates();
            }
            double next = queue.nextTime();
            if (cpu != null) {
                next = Math.min(next, cpu.nextEnd(now));
            }
            FlowGroup first = null;
            for (FlowGroup g : active) {
                if (g.rate() > 0) {
                    double t = now + g.remainingPerFlow() / g.rate();
                    if (t < next || (first == null && t == next)) {
                        next = t;
                        first = g;
                    }
                }
            }
            if (Double.isInfinite(next)) {
                throw new IllegalStateException("simulation stalled at t=" + now + " with " + active.size()
                        + " shuffles and no bandwidth for them");
            }
            advanceTo(next);
            if (first != null) {
                first.finish();
            }
            finishDrainedGroups();
            if (cpu != null) {
                for (Runnable ended : cpu.takeEnded()) {
                    events++;
                    ended.run();
                }
            }
            events += queue.runDue(now);
        }
        return new SimResult(completion, events, solves);
    }

    /** Moves time to {@code next} at the current rates, recording what the traces ask for on the way. */
    private void advanceTo(double next) {
        double dt = next - now;
        if (egress != null) {
            egress.record(active, now, dt);
        }
        if (loads != null) {
            loads.record(active, dt, network);
        }
        for (FlowGroup g : active) {
            g.advance(dt);
        }
        if (cpu != null) {
            cpu.advance(dt);
        }
        now = next;
    }

    private void recomputeRates() {
        ratesStale = false;
        if (active.isEmpty()) {
            return;
        }
        solves++;
        rates.solve(active);
    }

    private void finishDrainedGroups() {
        List<FlowGroup> done = new ArrayList<>();
        for (FlowGroup g : active) {
            if (g.remainingPerFlow() <= EPS * g.bytesPerFlow()) {
                done.add(g);
            }
        }
        if (done.isEmpty()) {
            return;
        }
        Map<FlowGroup, Double> roundWait = roundWaits == null ? Map.of() : roundWaits.of(done, active);
        active.removeAll(done);
        policy.onGroupsChanged(List.copyOf(active), now);
        ratesStale = true;
        for (FlowGroup g : done) {
            events++;
            states.get(g.job()).shuffleDrained = now;
            double wait = roundWait.getOrDefault(g, 0.0);
            if (wait > 0) {
                queue.schedule(now + wait, () -> endShuffle(g.job()));
            } else {
                endShuffle(g.job());
            }
        }
    }

    private void endShuffle(SimJob job) {
        JobState s = states.get(job);
        s.shuffleDone = true;
        s.shuffleDoneAt = now;
        maybeEndStageRun(job);
    }

    private void startStageRun(SimJob job) {
        JobState s = states.get(job);
        WorkloadSpec w = job.spec().workload();
        StageSpec st = w.stages().get(s.stage);
        if (st.exchange() != StageSpec.Exchange.ALL_TO_ALL) {
            throw new IllegalArgumentException(w.name() + ": the fluid simulator models all-to-all stages only, not "
                    + st.exchange());
        }
        int n = job.instances();
        double d = job.spec().datasetScale();
        double scaled = st.computeSeconds() * d * w.profiledNodes() / n;
        double fixed = w.fixedSecondsPerStage();
        double bytesPerFlow = st.shuffleBytes() * d / ((double) n * n);
        s.begin(now, bytesPerFlow);
        Runnable computeEnds = () -> {
            s.computeDone = true;
            s.computeEnd = now;
            maybeEndStageRun(job);
        };
        if (n < 2 || bytesPerFlow <= 0) {
            s.shuffleDone = true;
            compute(n, fixed + scaled, computeEnds);
            return;
        }
        double cap = w.sendCapFraction() * network.hostLinkRate() / (n - 1);
        s.aloneRatePerFlow = aloneRate(job, cap);
        Runnable shuffleStarts = () -> {
            s.shuffleStart = now;
            active.add(new FlowGroup(job, bytesPerFlow, cap, queue.nextSequence()));
            policy.onGroupsChanged(List.copyOf(active), now);
            ratesStale = true;
        };
        if (cpu == null) {
            queue.schedule(now + fixed + scaled, computeEnds);
            queue.schedule(now + fixed + (1 - st.overlap()) * scaled, shuffleStarts);
            return;
        }
        // the shuffle starts once the part of the computation it cannot overlap is done, however slow the pool
        double before = fixed + (1 - st.overlap()) * scaled;
        cpu.start(n, before, () -> {
            shuffleStarts.run();
            compute(n, st.overlap() * scaled, computeEnds);
        });
    }

    /** A flow's rate with the job alone on the network: its cap, or the tightest port's capacity per flow there. */
    private double aloneRate(SimJob job, double capPerFlow) {
        double rate = capPerFlow;
        for (Map.Entry<PortId, Integer> e : job.flowsPerPort().entrySet()) {
            rate = Math.min(rate, network.capacity(e.getKey()) / e.getValue());
        }
        return rate;
    }

    /** Computation of {@code seconds} at full speed on {@code instances} instances, then {@code then}. */
    private void compute(int instances, double seconds, Runnable then) {
        if (cpu == null) {
            queue.schedule(now + seconds, then);
        } else {
            cpu.start(instances, seconds, then);
        }
    }

    private void maybeEndStageRun(SimJob job) {
        JobState s = states.get(job);
        if (!s.runDone()) {
            return;
        }
        if (stageRuns != null) {
            stageRuns.add(s.stageRun(job, now));
        }
        if (s.next(job.spec().workload())) {
            startStageRun(job);
            return;
        }
        completion.put(job.id(), now);
        List<SimJob> alive = new ArrayList<>();
        for (SimJob j : jobs) {
            if (!completion.containsKey(j.id())) {
                alive.add(j);
            }
        }
        policy.onJobsChanged(alive, now);
        ratesStale = true;
    }
}
