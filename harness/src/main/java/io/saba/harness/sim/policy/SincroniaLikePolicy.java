package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortId;
import io.saba.harness.sim.engine.FlowGroup;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SharingPolicy;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sincronia-like (paper §8.4 study 6): each shuffle is a coflow whose sizes are known in advance; whenever the set
 * of coflows changes they are ordered by Sincronia's bottleneck-first heuristic (repeatedly take the port with the
 * most remaining bytes and put last the coflow with the most bytes on it), and every port serves them in that
 * order by strict priority (work-conserving: a lower coflow uses what the higher ones cannot).
 */
public final class SincroniaLikePolicy implements SharingPolicy {
    public static final PolicyFactory FACTORY = network -> new SincroniaLikePolicy();

    private final Map<FlowGroup, Integer> rank = new HashMap<>();

    @Override
    public void onGroupsChanged(List<FlowGroup> active, double now) {
        rank.clear();
        List<FlowGroup> left = new ArrayList<>(active);
        // Deterministic iteration: groups in start order.
        left.sort((a, b) -> Long.compare(a.startSequence(), b.startSequence()));
        int position = left.size() - 1;
        while (!left.isEmpty()) {
            Map<PortId, Double> load = new LinkedHashMap<>();
            for (FlowGroup g : left) {
                g.job().flowsPerPort().forEach((p, n) -> load.merge(p, n * g.remainingPerFlow(), Double::sum));
            }
            PortId bottleneck = null;
            double most = -1;
            for (Map.Entry<PortId, Double> e : load.entrySet()) {
                if (e.getValue() > most || (e.getValue() == most && e.getKey().compareTo(bottleneck) < 0)) {
                    most = e.getValue();
                    bottleneck = e.getKey();
                }
            }
            FlowGroup last = null;
            double biggest = -1;
            for (FlowGroup g : left) {
                Integer n = g.job().flowsPerPort().get(bottleneck);
                double bytes = n == null ? -1 : n * g.remainingPerFlow();
                if (bytes > biggest) {
                    biggest = bytes;
                    last = g;
                }
            }
            rank.put(last, position--);
            left.remove(last);
        }
    }

    @Override
    public PortSchedule arrange(PortId port, List<FlowGroup> groups) {
        Integer[] order = new Integer[groups.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(rank.getOrDefault(groups.get(a), Integer.MAX_VALUE),
                rank.getOrDefault(groups.get(b), Integer.MAX_VALUE)));
        PortSchedule s = new PortSchedule();
        for (int i : order) {
            s.newClass().queue(1, i);
        }
        return s;
    }
}
