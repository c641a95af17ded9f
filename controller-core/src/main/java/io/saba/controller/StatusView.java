package io.saba.controller;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.signals.AppSignals;
import io.saba.core.table.SensitivityTable;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A consistent picture for status pages: the applications, what each port this controller programs holds, the
 * allocation version, the backend's name, the open connections, the ports the backend found drifted from what it
 * wrote (port → what differs), which sensitivity table is in force (where it came from), and, for a member of a
 * controller group, its view of the group (null for a lone controller), the work signals of the applications
 * that reported any (application id → signals), which model the allocator uses ({@code sensitivity}), and what was
 * learnt of every workload that reported units (workload key → its model's source, estimate and drift).
 */
public record StatusView(List<AppView> apps, Map<PortId, PortAllocation> ports, long version, String backend,
                         long connections, Map<PortId, String> drift, String table, GroupView group,
                         Map<String, AppSignals> signals, SensitivityMode sensitivity,
                         Map<String, WorkloadEstimateView> estimates) {

    /** What was learnt of an application's workload, or null when it reported no unit. */
    public WorkloadEstimateView estimateOf(AppView app) {
        return estimates.get(SensitivityTable.key(app.workload()));
    }

    /**
     * What one tenant may see (when tokens are configured and it is no admin): its own applications and their
     * connections, the ports they cross with only their own weights there, and those ports' drift. Other tenants'
     * application ids, users and endpoints stay out; the ports' queue weights, which are sums, stay in.
     */
    public StatusView ofTenant(String tenant) {
        List<AppView> own = apps.stream().filter(a -> a.tenant().equals(tenant)).toList();
        Set<String> ids = own.stream().map(AppView::appId).collect(Collectors.toSet());
        Map<PortId, PortAllocation> visible = new TreeMap<>();
        ports.forEach((id, p) -> {
            PortAllocation mine = onlyApps(p, ids);
            if (mine != null) {
                visible.put(id, mine);
            }
        });
        Map<PortId, String> visibleDrift = new TreeMap<>(drift);
        visibleDrift.keySet().retainAll(visible.keySet());
        long connectionsOfTenant = own.stream().mapToLong(AppView::connections).sum();
        Map<String, AppSignals> ownSignals = new TreeMap<>(signals);
        ownSignals.keySet().retainAll(ids);
        // a workload is shared by tenants' applications: a tenant sees the estimates of the workloads it runs
        Set<String> workloads = own.stream().map(a -> SensitivityTable.key(a.workload())).collect(Collectors.toSet());
        Map<String, WorkloadEstimateView> ownEstimates = new TreeMap<>(estimates);
        ownEstimates.keySet().retainAll(workloads);
        return new StatusView(own, visible, version, backend, connectionsOfTenant, visibleDrift, table, group,
                ownSignals, sensitivity, ownEstimates);
    }

    /** The connections (of the applications shown) waiting for a route the fabric does not have yet. */
    public long unrouted() {
        return apps.stream().mapToLong(AppView::unrouted).sum();
    }

    /** The port with only these applications' weights, or null when none of them crosses it. */
    public static PortAllocation onlyApps(PortAllocation p, Set<String> appIds) {
        Map<String, Double> weights = new HashMap<>(p.appWeights());
        weights.keySet().retainAll(appIds);
        if (weights.isEmpty()) {
            return null;
        }
        return new PortAllocation(p.port(), p.queueOfLevel(), p.queueWeights(), weights, p.predictedSlowdown());
    }
}
