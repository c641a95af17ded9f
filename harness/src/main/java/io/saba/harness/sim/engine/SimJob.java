package io.saba.harness.sim.engine;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.network.FlowNetwork;
import io.saba.harness.sim.workload.JobSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A job inside one simulation: its spec and where its shuffle flows go (flows per port, fixed by routing). */
public final class SimJob {
    private final JobSpec spec;
    private final int index;
    private final Map<PortId, Integer> flowsPerPort;

    SimJob(JobSpec spec, int index, FlowNetwork network) {
        this.spec = spec;
        this.index = index;
        Map<PortId, Integer> m = new LinkedHashMap<>();
        List<String> hosts = spec.hosts();
        for (String src : hosts) {
            for (String dst : hosts) {
                if (!src.equals(dst)) {
                    for (PortId p : network.path(src, dst)) {
                        m.merge(p, 1, Integer::sum);
                    }
                }
            }
        }
        // Insertion order (hosts, then hops), never Map.copyOf: its iteration order changes from JVM to JVM, and
        // the order ports are visited decides float sums and, with strict priorities, which fixed point is found.
        this.flowsPerPort = java.util.Collections.unmodifiableMap(m);
    }

    public JobSpec spec() {
        return spec;
    }

    public String id() {
        return spec.id();
    }

    public String workload() {
        return spec.workload().name();
    }

    /** Position of the job in the simulation's input list (stable identity for policies). */
    public int index() {
        return index;
    }

    public int instances() {
        return spec.hosts().size();
    }

    /** How many of this job's all-to-all flows cross each port. */
    public Map<PortId, Integer> flowsPerPort() {
        return flowsPerPort;
    }
}
