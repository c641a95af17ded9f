package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.TopologyNetwork;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.sharing.PortFixedPointSharing;
import io.saba.harness.sim.sharing.PortLoad;
import io.saba.harness.sim.sharing.PortSchedule;
import io.saba.harness.sim.sharing.QueueingDelay;
import io.saba.harness.sim.sharing.ProgressiveFilling;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * One fluid simulation: jobs on a network under a policy, all starting at time 0; returns each job's completion
 * time. Single-threaded and free of shared state, so many run in parallel.
 *
 * <p>A stage run of a job with n instances and dataset scale d: compute time = fixed + c·d·P/n (P = profiled
 * nodes); the shuffle (d·S bytes, n² equal parts, the n diagonal ones local) starts after the fixed part and
 * (1 − overlap) of the scaled compute, and the stage ends when both compute and shuffle are done.
 */
public final class Simulation {
    private static final double EPS = 1e-9;

    private final FlowNetwork network;
    private final SharingPolicy policy;
    private final boolean headOfLineBlocking;
    private final List<SimJob> jobs = new ArrayList<>();
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private final List<FlowGroup> active = new ArrayList<>();
    private final Map<SimJob, JobState> states = new HashMap<>();
    private final Map<String, Double> completion = new LinkedHashMap<>();
    private long sequence;
    private long events;
    private long solves;
    private double now;
    private boolean ratesStale = true;
    private PortId traced;
    private final List<double[]> trace = new ArrayList<>();
    private CpuPool cpu;
    private QueueingDelay queueing;
    private PortLoads loads;
    private List<StageRun> stageRuns;

    private record Event(double time, long seq, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** Where a job is: stage index, run within the stage, and which halves of the stage are done. */
    private static final class JobState {
        int stage;
        int run;
        boolean computeDone;
        boolean shuffleDone;
        FlowGroup group;
        // the current stage run's times, for traceStageRuns
        double runStart;
        double computeEnd;
        double shuffleStart;
        double shuffleDrained;
        double shuffleDoneAt;
        double bytesPerFlow;
        double aloneRatePerFlow;
    }

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
        this.headOfLineBlocking = headOfLineBlocking;
        for (int i = 0; i < specs.size(); i++) {
            jobs.add(new SimJob(specs.get(i), i, network));
        }
        this.policy = policyFactory.create(network);
    }

    /**
     * Records what leaves one port over the run (the simulated profiler's view of a host's egress counter), for
     * {@link #egressUtilisation} after {@link #run}.
     */
    public Simulation traceEgress(PortId port) {
        this.traced = port;
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
        this.queueing = delay;
        return this;
    }

    /**
     * The traced port's utilisation per interval of {@code intervalSeconds} from 0 to the last completion: what
     * the testbed profiler's traffic record samples from a byte counter.
     */
    public double[] egressUtilisation(double intervalSeconds) {
        if (traced == null) {
            throw new IllegalStateException("no port traced: call traceEgress before run");
        }
        int n = Math.max(1, (int) Math.ceil(now / intervalSeconds - 1e-9));
        double[] bytes = new double[n];
        for (double[] seg : trace) {
            // spread each constant-rate segment [t0, t1) over the intervals it overlaps
            double t = seg[0];
            while (t < seg[1] - 1e-12) {
                int i = Math.min(n - 1, (int) Math.floor(t / intervalSeconds + 1e-12));
                double end = Math.min(seg[1], (i + 1) * intervalSeconds);
                if (end <= t) {
                    end = seg[1];
                }
                bytes[i] += seg[2] * (end - t);
                t = end;
            }
        }
        double full = network.capacity(traced) * intervalSeconds;
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            u[i] = Math.min(1, bytes[i] / full);
        }
        return u;
    }

    private void recordEgress(double dt) {
        if (traced == null || dt <= 0) {
            return;
        }
        double rate = 0;
        for (FlowGroup g : active) {
            Integer flows = g.job().flowsPerPort().get(traced);
            if (flows != null) {
                rate += g.rate() * flows;
            }
        }
        if (rate > 0) {
            trace.add(new double[]{now, now + dt, rate});
        }
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
            double next = queue.isEmpty() ? Double.POSITIVE_INFINITY : queue.peek().time;
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
            double dt = next - now;
            recordEgress(dt);
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
            while (!queue.isEmpty() && queue.peek().time <= now) {
                events++;
                queue.poll().action.run();
            }
        }
        return new SimResult(completion, events, solves);
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
        // the queues as the rounds' last messages found them: with every group still in, at the rates just used
        Map<FlowGroup, Double> roundWait = new HashMap<>();
        if (queueing != null) {
            Map<PortId, Map<FlowGroup, Double>> waits = new HashMap<>();
            for (FlowGroup g : done) {
                roundWait.put(g, roundTrip(g, waits));
            }
        }
        active.removeAll(done);
        policy.onGroupsChanged(List.copyOf(active), now);
        ratesStale = true;
        for (FlowGroup g : done) {
            events++;
            JobState s = states.get(g.job());
            s.group = null;
            s.shuffleDrained = now;
            double wait = roundWait.getOrDefault(g, 0.0);
            if (wait > 0) {
                schedule(now + wait, () -> endShuffle(g.job()));
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

    /** The longest there-and-back queueing wait over the group's pairs of hosts. */
    private double roundTrip(FlowGroup g, Map<PortId, Map<FlowGroup, Double>> waits) {
        List<String> hosts = g.job().spec().hosts();
        double worst = 0;
        for (int a = 0; a < hosts.size(); a++) {
            for (int b = a + 1; b < hosts.size(); b++) {
                double t = 0;
                for (PortId p : network.path(hosts.get(a), hosts.get(b))) {
                    t += waits.computeIfAbsent(p, this::waitsAt).getOrDefault(g, 0.0);
                }
                for (PortId p : network.path(hosts.get(b), hosts.get(a))) {
                    t += waits.computeIfAbsent(p, this::waitsAt).getOrDefault(g, 0.0);
                }
                worst = Math.max(worst, t);
            }
        }
        return worst;
    }

    /** Each active group's wait at one port: the other groups' flows in its queue, if the port is saturated. */
    private Map<FlowGroup, Double> waitsAt(PortId port) {
        List<FlowGroup> here = new ArrayList<>();
        double used = 0;
        for (FlowGroup g : active) {
            Integer flows = g.job().flowsPerPort().get(port);
            if (flows != null) {
                here.add(g);
                used += g.rate() * flows;
            }
        }
        double capacity = network.capacity(port);
        Map<FlowGroup, Double> out = new HashMap<>();
        if (used < PortLoads.SATURATED * capacity) {
            return out;
        }
        for (List<PortSchedule.Queue> cls : policy.arrange(port, List.copyOf(here)).classes()) {
            for (PortSchedule.Queue q : cls) {
                double flows = 0;
                double rate = 0;
                for (int m : q.members()) {
                    FlowGroup g = here.get(m);
                    int f = g.job().flowsPerPort().get(port);
                    flows += f;
                    rate += g.rate() * f;
                }
                for (int m : q.members()) {
                    FlowGroup g = here.get(m);
                    out.put(g, queueing.wait(flows - g.job().flowsPerPort().get(port), capacity, rate));
                }
            }
        }
        return out;
    }

    private void schedule(double time, Runnable action) {
        queue.add(new Event(time, sequence++, action));
    }

    private void startStageRun(SimJob job) {
        JobState s = states.get(job);
        WorkloadSpec w = job.spec().workload();
        StageSpec st = w.stages().get(s.stage);
        int n = job.instances();
        double d = job.spec().datasetScale();
        double scaled = st.computeSeconds() * d * w.profiledNodes() / n;
        double fixed = w.fixedSecondsPerStage();
        s.computeDone = false;
        s.shuffleDone = false;
        s.runStart = now;
        s.shuffleStart = Double.NaN;
        s.shuffleDrained = Double.NaN;
        s.shuffleDoneAt = Double.NaN;
        double bytesPerFlow = st.shuffleBytes() * d / ((double) n * n);
        s.bytesPerFlow = bytesPerFlow;
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
            FlowGroup g = new FlowGroup(job, bytesPerFlow, cap, sequence++);
            s.group = g;
            active.add(g);
            policy.onGroupsChanged(List.copyOf(active), now);
            ratesStale = true;
        };
        if (cpu == null) {
            schedule(now + fixed + scaled, computeEnds);
            schedule(now + fixed + (1 - st.overlap()) * scaled, shuffleStarts);
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
            schedule(now + seconds, then);
        } else {
            cpu.start(instances, seconds, then);
        }
    }

    private void maybeEndStageRun(SimJob job) {
        JobState s = states.get(job);
        if (!s.computeDone || !s.shuffleDone) {
            return;
        }
        WorkloadSpec w = job.spec().workload();
        if (stageRuns != null) {
            stageRuns.add(new StageRun(job.id(), job.workload(), job.instances(), s.stage, s.run, s.runStart, now,
                    s.computeEnd, s.shuffleStart, s.shuffleDrained, s.shuffleDoneAt, s.bytesPerFlow,
                    s.aloneRatePerFlow));
        }
        s.run++;
        if (s.run >= w.stages().get(s.stage).repeat()) {
            s.run = 0;
            s.stage++;
        }
        if (s.stage >= w.stages().size()) {
            completion.put(job.id(), now);
            List<SimJob> alive = new ArrayList<>();
            for (SimJob j : jobs) {
                if (!completion.containsKey(j.id())) {
                    alive.add(j);
                }
            }
            policy.onJobsChanged(alive, now);
            ratesStale = true;
            return;
        }
        startStageRun(job);
    }

    private void recomputeRates() {
        ratesStale = false;
        if (active.isEmpty()) {
            return;
        }
        solves++;
        Map<FlowGroup, Integer> idx = new HashMap<>();
        for (int i = 0; i < active.size(); i++) {
            idx.put(active.get(i), i);
        }
        // Gather, per port, the groups crossing it, in a deterministic order (group order, then port order).
        Map<PortId, List<FlowGroup>> byPort = new LinkedHashMap<>();
        for (FlowGroup g : active) {
            for (PortId p : g.job().flowsPerPort().keySet()) {
                byPort.computeIfAbsent(p, k -> new ArrayList<>()).add(g);
            }
        }
        List<PortLoad> loads = new ArrayList<>(byPort.size());
        boolean exact = policy.isPerFlowMaxMin() && !headOfLineBlocking;
        for (Map.Entry<PortId, List<FlowGroup>> e : byPort.entrySet()) {
            List<FlowGroup> here = e.getValue();
            int[] gs = new int[here.size()];
            double[] mult = new double[here.size()];
            for (int k = 0; k < here.size(); k++) {
                gs[k] = idx.get(here.get(k));
                mult[k] = here.get(k).job().flowsPerPort().get(e.getKey());
            }
            PortSchedule sched = exact ? null : policy.arrange(e.getKey(), List.copyOf(here));
            if (headOfLineBlocking && network instanceof TopologyNetwork f && f.isHostPort(e.getKey())) {
                sched = sched.asFifoBuffers();
            }
            loads.add(new PortLoad(network.capacity(e.getKey()), gs, mult, sched));
        }
        double[] caps = new double[active.size()];
        for (int i = 0; i < caps.length; i++) {
            caps[i] = active.get(i).capPerFlow();
        }
        double[] rates = exact ? ProgressiveFilling.solve(caps, loads) : PortFixedPointSharing.solve(caps, loads);
        for (int i = 0; i < rates.length; i++) {
            active.get(i).rate(rates[i]);
        }
    }
}
