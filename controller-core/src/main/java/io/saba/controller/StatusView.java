package io.saba.controller;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.fabric.FabricStatus;
import io.saba.controller.signals.AppSignals;
import io.saba.core.table.SensitivityTable;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A consistent picture for status pages: the applications, what each port this controller programs holds, the
 * allocation version, the open connections, the fabric (its backend, the last push and its result, the ports being
 * retried, the ports the backend found drifted from what it wrote), which sensitivity table is in force (where it
 * came from), and, for a member of a controller group, its view of the group (null for a lone controller), the work
 * signals of the applications that reported any (application id → signals), the sensitivity model in force for each
 * workload the applications run (what their predicted slowdowns are read from), which model the allocator uses
 * ({@code sensitivity}), and what was learnt of every workload that reported units (workload key → its model's
 * source, estimate and drift).
 */
public record StatusView(List<AppView> apps, Map<PortId, PortAllocation> ports, long version, FabricStatus fabric,
                         long connections, String table, GroupView group, Map<String, AppSignals> signals,
                         Map<String, SensitivityModel> models, SensitivityMode sensitivity,
                         Map<String, WorkloadEstimateView> estimates, Map<String, ConnectionRejections> rejected) {

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
        long connectionsOfTenant = own.stream().mapToLong(AppView::connections).sum();
        Map<String, AppSignals> ownSignals = new TreeMap<>(signals);
        ownSignals.keySet().retainAll(ids);
        Map<String, SensitivityModel> ownModels = new TreeMap<>(models);
        ownModels.keySet().retainAll(own.stream().map(AppView::workload).collect(Collectors.toSet()));
        // a workload is shared by tenants' applications: a tenant sees the estimates of the workloads it runs
        Set<String> workloads = own.stream().map(a -> SensitivityTable.key(a.workload())).collect(Collectors.toSet());
        Map<String, WorkloadEstimateView> ownEstimates = new TreeMap<>(estimates);
        ownEstimates.keySet().retainAll(workloads);
        Map<String, ConnectionRejections> ownRejected = new TreeMap<>(rejected);
        ownRejected.keySet().retainAll(ids);
        return new StatusView(own, visible, version, fabric.onlyPorts(visible.keySet()), connectionsOfTenant, table,
                group, ownSignals, ownModels, sensitivity, ownEstimates, ownRejected);
    }

    /**
     * What an application's workload model predicts for it at this share of a link (its slowdown if that port were
     * its bottleneck); NaN when its workload has no model here.
     */
    public double predictedSlowdown(AppView app, double weight) {
        SensitivityModel m = models.get(app.workload());
        return m == null ? Double.NaN : m.slowdown(weight);
    }

    /** One application's share of one port: its weight there and what its model predicts at that weight. */
    public record PortShare(PortId port, double weight, double predictedSlowdown) {
    }

    /** Each shown application that crosses a port: its ports in port order, with its share of each. */
    public Map<String, List<PortShare>> sharesOfApps() {
        Map<String, AppView> byId = new HashMap<>();
        apps.forEach(a -> byId.put(a.appId(), a));
        Map<String, List<PortShare>> out = new HashMap<>();
        for (PortAllocation p : new TreeMap<>(ports).values()) {
            p.appWeights().forEach((id, w) -> {
                AppView a = byId.get(id);
                if (a != null) {
                    out.computeIfAbsent(id, k -> new ArrayList<>())
                            .add(new PortShare(p.port(), w, predictedSlowdown(a, w)));
                }
            });
        }
        return out;
    }

    /**
     * An application's predicted slowdown over its ports: the highest, which is at its smallest share (the models
     * fall with bandwidth), the port that would set its pace. NaN without ports or models.
     */
    public static double predictedSlowdown(List<PortShare> shares) {
        double worst = Double.NaN;
        for (PortShare s : shares) {
            double d = s.predictedSlowdown();
            if (!Double.isNaN(d) && (Double.isNaN(worst) || d > worst)) {
                worst = d;
            }
        }
        return worst;
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
