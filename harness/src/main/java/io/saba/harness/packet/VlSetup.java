package io.saba.harness.packet;

import io.saba.controller.fabric.infiniband.Sl2Vl;
import io.saba.controller.fabric.infiniband.VlArbPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.harness.sim.policy.AppPresence;
import io.saba.harness.sim.policy.SabaPlan;
import io.saba.harness.sim.policy.SabaPlanner;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.VlArbitration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Writes a {@link VlMode} into a packet-level fabric before its jobs run: each job's service level and, on every
 * port the jobs cross, the SL-to-VL table and VL arbitration table. Weights become tables the way Saba's InfiniBand
 * backend makes them ({@link VlArbPlan}: whole MTU packets per entry, at most {@code tableEntries} entries, nothing
 * in the high-priority table), and Saba's level → queue map becomes the SL-to-VL table as {@link Sl2Vl} encodes it
 * (levels not on the port → VL 0). The plan is made once, for all jobs, at time 0 (they all start then); it is not
 * redone as jobs finish, where a work-conserving VL arbitration gives an idle VL's turns to the busy ones anyway.
 */
public final class VlSetup {
    private final int vls;
    private final int tableEntries;
    private final SabaPlanner saba;
    private final Set<LeafSpine.Tier> separateAt;
    private final SabaTables sabaTables;
    /** The workload name Saba's planner is told for a job (its table entry). */
    private final Function<JobSpec, String> workloadOf;

    /** How {@link VlMode#SABA} writes Saba's plan into a port's tables. */
    private enum SabaTables {
        /** SL = level, SL-to-VL = the level → queue map, VL weights = queue weights. */
        AS_PLANNED,
        /** As planned, every VL the port uses weighted equally. */
        EQUAL_WEIGHTS,
        /** Each application on an SL of its own; a port's unused VLs split Saba's most crowded queues. */
        SPREAD
    }

    /**
     * @param vls          data VLs per port, VL 0 (the default class) included
     * @param tableEntries entries of each port's low-priority VL arbitration table (VLArbitrationLowCap)
     * @param saba         Saba's controller pipeline, for {@link VlMode#SABA} (null if that mode is not used)
     */
    public VlSetup(int vls, int tableEntries, SabaPlanner saba) {
        this(vls, tableEntries, saba, EnumSet.allOf(LeafSpine.Tier.class));
    }

    /**
     * As {@link #VlSetup(int, int, SabaPlanner)}, writing the separating modes' tables only into the ports of
     * {@code separateAt}; every other port keeps one VL for all (which hop's separation matters).
     */
    public VlSetup(int vls, int tableEntries, SabaPlanner saba, Set<LeafSpine.Tier> separateAt) {
        this(vls, tableEntries, saba, separateAt, SabaTables.AS_PLANNED, j -> j.workload().name());
    }

    private VlSetup(int vls, int tableEntries, SabaPlanner saba, Set<LeafSpine.Tier> separateAt,
                    SabaTables sabaTables, Function<JobSpec, String> workloadOf) {
        if (vls < 2) {
            throw new IllegalArgumentException("separating applications needs ≥ 2 VLs, not " + vls);
        }
        this.vls = vls;
        this.tableEntries = tableEntries;
        this.saba = saba;
        this.separateAt = EnumSet.copyOf(separateAt);
        this.sabaTables = sabaTables;
        this.workloadOf = workloadOf;
    }

    /**
     * This setup with Saba's levels and level → VL maps as planned, but every VL a port uses weighted equally:
     * Saba's grouping of applications without its weights.
     */
    public VlSetup withEqualSabaWeights() {
        return new VlSetup(vls, tableEntries, saba, separateAt, SabaTables.EQUAL_WEIGHTS, workloadOf);
    }

    /**
     * This setup with Saba's levels, queues and weights, but each application on a service level of its own, and on
     * every port the VLs Saba's plan leaves unused given to its queues that hold the most applications: what Saba
     * would gain by separating applications of one level when a port has VLs to spare (see {@link SpreadTables}).
     */
    public VlSetup withSpreadApplications() {
        return new VlSetup(vls, tableEntries, saba, separateAt, SabaTables.SPREAD, workloadOf);
    }

    /**
     * This setup telling Saba's planner {@code workloadOf(job)} as each job's workload instead of its name: a table
     * with an entry per job kind (such as a workload at one dataset scale) lets the planner tell them apart.
     */
    public VlSetup withWorkloadNames(Function<JobSpec, String> workloadOf) {
        return new VlSetup(vls, tableEntries, saba, separateAt, sabaTables, workloadOf);
    }

    /** Every port each job's packets (data and ACKs: all-to-all, so both directions) leave by, in a stable order. */
    public static Map<String, Set<PortId>> portsOf(LeafSpineNetwork network, List<JobSpec> jobs) {
        Map<String, Set<PortId>> out = new HashMap<>();
        for (JobSpec j : jobs) {
            Set<PortId> ports = new LinkedHashSet<>();
            for (String a : j.hosts()) {
                for (String b : j.hosts()) {
                    ports.addAll(network.path(a, b));
                }
            }
            out.put(j.id(), ports);
        }
        return out;
    }

    /**
     * What a mode wrote: each job's service level and, per configured port, its SL-to-VL table and VL arbitration
     * (ports left as built, one VL and no arbitration, are absent).
     */
    public record Applied(Map<String, Integer> slOf, Map<PortId, int[]> sl2vl, Map<PortId, VlArbitration> arbitration) {
        /** The VL of {@code job}'s packets on {@code port}. */
        public int vlOf(String job, PortId port) {
            int[] t = sl2vl.get(port);
            return t == null ? 0 : t[slOf.get(job)];
        }
    }

    /** Configures {@code fabric} for {@code mode}: each job's service level, and every port the jobs cross. */
    public Applied apply(VlMode mode, LeafSpine.Fabric fabric, List<JobSpec> jobs) {
        Map<PortId, int[]> tables = new TreeMap<>();
        Map<PortId, VlArbitration> arbitration = new TreeMap<>();
        LeafSpineNetwork network = new LeafSpineNetwork(fabric.shape(), fabric.network().params().linkGbps());
        Map<String, Set<PortId>> ports = portsOf(network, jobs);
        Map<String, Integer> slOf = new HashMap<>();
        switch (mode) {
            case SHARED -> jobs.forEach(j -> slOf.put(j.id(), 0));
            case VL_PER_APPLICATION -> {
                for (int i = 0; i < jobs.size(); i++) {
                    slOf.put(jobs.get(i).id(), 1 + i % (Sl2Vl.SLS - 1));
                }
                for (Map.Entry<PortId, TreeSet<Integer>> e : slsByPort(ports, slOf).entrySet()) {
                    int[] sl2vl = new int[Sl2Vl.SLS];
                    double[] weights = new double[vls];
                    int k = 0;
                    for (int sl : e.getValue()) {
                        sl2vl[sl] = 1 + k++ % (vls - 1);
                        weights[sl2vl[sl]] = 1;
                    }
                    configure(fabric, e.getKey(), sl2vl, weights, tables, arbitration);
                }
            }
            case SABA -> {
                SabaPlan plan = plan(jobs, ports);
                if (sabaTables == SabaTables.SPREAD) {
                    SpreadTables spread = SpreadTables.of(jobs, plan.levelOfApp(), Sl2Vl.SLS);
                    slOf.putAll(spread.slOf());
                    Set<PortId> crossed = new TreeSet<>();
                    ports.values().forEach(crossed::addAll);
                    for (PortId p : crossed) {
                        SpreadTables.Port t = spread.port(jobsAt(ports, p), plan.ports().get(p), vls);
                        configure(fabric, p, t.sl2vl(), t.weights(), tables, arbitration);
                    }
                    break;
                }
                jobs.forEach(j -> slOf.put(j.id(), plan.levelOfApp().get(j.id())));
                Map<PortId, TreeSet<Integer>> present = slsByPort(ports, slOf);
                for (PortId p : present.keySet()) {
                    PortAllocation pa = plan.ports().get(p);
                    byte[] table = Sl2Vl.encode(pa.queueOfLevel());
                    int[] sl2vl = new int[Sl2Vl.SLS];
                    for (int sl = 0; sl < Sl2Vl.SLS; sl++) {
                        sl2vl[sl] = Sl2Vl.vlOf(table, sl);
                    }
                    double[] weights = pa.queueWeights();
                    if (sabaTables == SabaTables.EQUAL_WEIGHTS) {
                        weights = new double[weights.length];
                        for (int sl : present.get(p)) {
                            weights[sl2vl[sl]] = 1;
                        }
                    }
                    configure(fabric, p, sl2vl, weights, tables, arbitration);
                }
            }
            default -> throw new IllegalStateException(mode.toString());
        }
        for (int sl : slOf.values()) {
            if (sl < 0 || sl >= Sl2Vl.SLS) {
                throw new IllegalStateException("service level " + sl + " outside 0.." + (Sl2Vl.SLS - 1));
            }
        }
        return new Applied(Map.copyOf(slOf), tables, arbitration);
    }

    /** Saba's plan for {@code jobs}, each crossing its {@code ports} ({@link #portsOf}). */
    public SabaPlan plan(List<JobSpec> jobs, Map<String, Set<PortId>> ports) {
        if (saba == null) {
            throw new IllegalStateException("no Saba planner given");
        }
        List<AppPresence> apps = new ArrayList<>();
        for (JobSpec j : jobs) {
            apps.add(new AppPresence(j.id(), workloadOf.apply(j), ports.get(j.id())));
        }
        return saba.fresh().plan(apps);
    }

    /** The jobs crossing {@code port}, in a stable order. */
    private static List<String> jobsAt(Map<String, Set<PortId>> ports, PortId port) {
        List<String> out = new ArrayList<>();
        ports.forEach((job, ps) -> {
            if (ps.contains(port)) {
                out.add(job);
            }
        });
        out.sort(null);
        return out;
    }

    private static Map<PortId, TreeSet<Integer>> slsByPort(Map<String, Set<PortId>> ports, Map<String, Integer> slOf) {
        Map<PortId, TreeSet<Integer>> out = new TreeMap<>();
        ports.forEach((job, ps) -> ps.forEach(p -> out.computeIfAbsent(p, k -> new TreeSet<>()).add(slOf.get(job))));
        return out;
    }

    /** One port: its SL-to-VL table, and its VL weights as the backend's VL arbitration table. */
    private void configure(LeafSpine.Fabric fabric, PortId port, int[] sl2vl, double[] queueWeights,
                           Map<PortId, int[]> tables, Map<PortId, VlArbitration> arbitration) {
        if (queueWeights.length > vls) {
            throw new IllegalArgumentException(port + ": " + queueWeights.length + " queues on a port of " + vls
                    + " VLs");
        }
        LeafSpine.Hop hop = new LeafSpine.Hop(port.node(), port.port());
        if (!separateAt.contains(fabric.shape().tierOf(hop))) {
            return;
        }
        double[] w = new double[vls];
        System.arraycopy(queueWeights, 0, w, 0, queueWeights.length);
        int grain = fabric.network().params().mtuBytes() / 64;
        VlArbPlan plan = VlArbPlan.of(w, tableEntries, grain);
        List<VlArbitration.Entry> low = new ArrayList<>();
        for (VlArbPlan.Entry e : plan.entries()) {
            low.add(new VlArbitration.Entry(e.vl(), e.weight()));
        }
        VlArbitration arb = new VlArbitration(List.of(), low, 0);
        fabric.configurePort(hop, sl2vl, arb);
        tables.put(port, sl2vl.clone());
        arbitration.put(port, arb);
    }
}
