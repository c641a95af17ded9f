package io.saba.harness.sim.policy;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.harness.sim.engine.FlowGroup;
import io.saba.harness.sim.engine.PolicyFactory;
import io.saba.harness.sim.engine.SharingPolicy;
import io.saba.harness.sim.engine.SimJob;
import io.saba.harness.sim.sharing.PortSchedule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Saba in the simulator: whenever jobs start or finish, the controller recomputes levels, per-port queue maps
 * and weights; each port then serves its queues by weighted round robin (work-conserving: an idle queue's share
 * goes to the busy ones in proportion to their weights), flows fair inside a queue. Like the real system, the
 * controller reacts to applications registering and leaving, not to each shuffle starting.
 */
public final class SabaPolicy implements SharingPolicy {
    private final SabaPlanner controller;
    private SabaPlan plan = new SabaPlan(Map.of(), Map.of());

    public SabaPolicy(SabaPlanner controller) {
        this.controller = controller;
    }

    public static PolicyFactory factory(SabaPlanner controller) {
        return network -> new SabaPolicy(controller.fresh());
    }

    @Override
    public void onJobsChanged(List<SimJob> alive, double now) {
        List<AppPresence> apps = new ArrayList<>(alive.size());
        for (SimJob j : alive) {
            apps.add(new AppPresence(j.id(), j.workload(), j.flowsPerPort().keySet()));
        }
        plan = controller.plan(apps);
    }

    @Override
    public PortSchedule arrange(PortId port, List<FlowGroup> groups) {
        PortAllocation pa = plan.ports().get(port);
        PortSchedule s = new PortSchedule();
        if (pa == null) {
            return PortSchedule.oneQueue(groups.size());
        }
        double[] weights = pa.queueWeights();
        Map<Integer, List<Integer>> members = new LinkedHashMap<>();
        for (int i = 0; i < groups.size(); i++) {
            Integer level = plan.levelOfApp().get(groups.get(i).job().id());
            Integer queue = level == null ? null : pa.queueOfLevel().get(level);
            // An application the plan does not know (cannot happen in a consistent run) gets the last queue.
            members.computeIfAbsent(queue == null ? weights.length - 1 : queue, k -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<Integer, List<Integer>> e : members.entrySet()) {
            int q = e.getKey();
            double w = q >= 0 && q < weights.length ? weights[q] : 0;
            s.queue(w, e.getValue().stream().mapToInt(Integer::intValue).toArray());
        }
        return s;
    }
}
