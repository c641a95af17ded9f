package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.TableEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Saba controller built on the core's {@link PortSolver} (Eq. 2) alone, standing in for the core's
 * {@code Allocator} (K-means levels + hierarchical queue maps) until it is available to the harness.
 *
 * <p>Levels: one per application (as if there were unlimited priority levels). Queues: when a port carries more
 * applications than it has queues, applications are ordered by their Eq. 2 weight and cut into {@code queues}
 * runs of near-equal size, so applications with similar shares share a queue; a queue's weight is the sum of its
 * applications' weights (as in the paper). Weights per port are cached by the multiset of workloads on it, which
 * is all Eq. 2 depends on.
 */
public final class InterimSabaController implements SabaController {
    private final SensitivityTable table;
    private final PortSolver solver;
    private final int queues;
    private final double capacity;
    private final Map<List<String>, double[]> cache = new ConcurrentHashMap<>();

    /**
     * @param table    sensitivity models by workload
     * @param solver   Eq. 2 solver
     * @param queues   queues per port for Saba ({@code Integer.MAX_VALUE} = unlimited)
     * @param capacity C_Saba, fraction of the link
     */
    public InterimSabaController(SensitivityTable table, PortSolver solver, int queues, double capacity) {
        this.table = table;
        this.solver = solver;
        this.queues = queues;
        this.capacity = capacity;
    }

    @Override
    public SabaPlan plan(List<AppPresence> apps) {
        Map<String, Integer> level = new HashMap<>();
        for (int i = 0; i < apps.size(); i++) {
            level.put(apps.get(i).appId(), i);
        }
        Map<PortId, List<AppPresence>> byPort = new TreeMap<>();
        for (AppPresence a : apps) {
            for (PortId p : a.ports()) {
                byPort.computeIfAbsent(p, k -> new ArrayList<>()).add(a);
            }
        }
        Map<PortId, PortAllocation> out = new HashMap<>();
        for (Map.Entry<PortId, List<AppPresence>> e : byPort.entrySet()) {
            out.put(e.getKey(), allocatePort(e.getKey(), e.getValue(), level));
        }
        return new SabaPlan(level, out);
    }

    private PortAllocation allocatePort(PortId port, List<AppPresence> here, Map<String, Integer> level) {
        // Sort by workload so that the cache key and the weight order agree.
        List<AppPresence> sorted = new ArrayList<>(here);
        sorted.sort((a, b) -> a.workload().compareTo(b.workload()) != 0 ? a.workload().compareTo(b.workload())
                : a.appId().compareTo(b.appId()));
        List<String> key = sorted.stream().map(AppPresence::workload).toList();
        double[] w = cache.computeIfAbsent(key, this::solve);
        Integer[] order = new Integer[sorted.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(w[b], w[a]));
        int q = Math.min(queues, sorted.size());
        double[] qw = new double[q];
        Map<Integer, Integer> queueOfLevel = new HashMap<>();
        Map<String, Double> appWeights = new HashMap<>();
        for (int rank = 0; rank < order.length; rank++) {
            int i = order[rank];
            int queue = (int) ((long) rank * q / order.length);
            qw[queue] += w[i];
            queueOfLevel.put(level.get(sorted.get(i).appId()), queue);
            appWeights.put(sorted.get(i).appId(), w[i]);
        }
        return new PortAllocation(port, queueOfLevel, qw, appWeights);
    }

    private double[] solve(List<String> workloads) {
        List<SensitivityModel> models = new ArrayList<>(workloads.size());
        for (String w : workloads) {
            models.add(table.find(w).map(TableEntry::model).orElse(SensitivityModel.flat()));
        }
        PortSolution s = solver.solve(models, capacity);
        return s.weights();
    }
}
