package io.saba.controller.http;

import io.saba.controller.GroupView;
import io.saba.controller.StatusView;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.fabric.AgentStatus;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricStatus;
import io.saba.controller.fabric.PushOutcome;
import io.saba.controller.signals.AppSignals;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /status.json}: the status as plain maps and lists, numbers raw (fractions of a link, not percentages;
 * times as ISO-8601 instants), for scripts. The dashboard formats the same view for people.
 */
final class StatusJson {
    private StatusJson() {
    }

    static Map<String, Object> of(StatusView v, String access) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("backend", v.fabric().backend());
        root.put("access", access);
        root.put("table", v.table());
        root.put("sensitivity", v.sensitivity().label());
        root.put("allocation_version", v.version());
        root.put("connections", v.connections());
        root.put("connections_unrouted", v.unrouted());
        Map<String, List<StatusView.PortShare>> shares = v.sharesOfApps();
        List<Map<String, Object>> apps = new ArrayList<>();
        for (AppView a : v.apps()) {
            Map<String, Object> m = app(a, shares.getOrDefault(a.appId(), List.of()), v.signals().get(a.appId()),
                    v.estimateOf(a));
            io.saba.controller.ConnectionRejections r = v.rejected().get(a.appId());
            m.put("connections_rejected", r == null ? 0 : r.count());
            m.put("last_rejection", r == null ? null : r.lastReason());
            apps.add(m);
        }
        root.put("applications", apps);
        // per workload as well: an estimate outlives the applications it was learnt from (a finished job's last
        // units arrive as it leaves), and it is what a later application of the workload starts from
        Map<String, Object> workloads = new TreeMap<>();
        v.estimates().forEach((key, w) -> workloads.put(key, model(w.source().label(), w.inForce(), w)));
        root.put("workloads", workloads);
        List<Map<String, Object>> ports = new ArrayList<>();
        for (PortAllocation p : v.ports().values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", p.port().toString());
            m.put("queue_of_level", new TreeMap<>(p.queueOfLevel()));
            m.put("queue_weights", p.queueWeights());
            m.put("app_weights", new TreeMap<>(p.appWeights()));
            putNumber(m, "predicted_slowdown", p.predictedSlowdown());
            ports.add(m);
        }
        root.put("ports", ports);
        root.put("drift", byPortName(v.fabric().drift()));
        root.put("fabric", fabric(v.fabric()));
        if (v.group() != null) {
            root.put("group", group(v.group()));
        }
        return root;
    }

    private static Map<String, Object> app(AppView a, List<StatusView.PortShare> shares, AppSignals signals,
                                           WorkloadEstimateView estimate) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("app_id", a.appId());
        m.put("workload", a.workload());
        m.put("workload_known", a.workloadKnown());
        m.put("model", model(a.modelSource().label(), a.model(), estimate));
        m.put("framework", a.framework());
        m.put("user", a.user());
        m.put("tenant", a.tenant());
        m.put("attempt", a.attempt());
        m.put("level", a.level());
        m.put("connections", a.connections());
        m.put("connections_unrouted", a.unrouted());
        m.put("lease_remaining_ms", a.leaseRemainingMillis());
        putNumber(m, "predicted_slowdown", StatusView.predictedSlowdown(shares));
        List<Map<String, Object>> ports = new ArrayList<>();
        for (StatusView.PortShare s : shares) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("port", s.port().toString());
            p.put("weight", s.weight());
            putNumber(p, "predicted_slowdown", s.predictedSlowdown());
            ports.add(p);
        }
        m.put("ports", ports);
        if (signals != null) {
            m.put("signals", signals(signals));
        }
        return m;
    }

    /**
     * An application's model: where it comes from, its slowdowns at 25 and 50 % (the default model's too, which moves
     * as other workloads are learnt), and, once its workload reported units, the online estimate with its standard error, the table's slowdowns, and drift.
     */
    private static Map<String, Object> model(String source, SensitivityModel inForce, WorkloadEstimateView w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        m.put("slowdown_at", slowdowns(inForce));
        if (w == null) {
            return m; // no unit reported yet for its workload
        }
        SensitivityEstimate e = w.estimate();
        if (e != null) {
            Map<String, Object> est = new LinkedHashMap<>();
            est.put("network_share", e.networkShare());
            est.put("network_share_error", number(e.standardError()));
            est.put("units", e.observations());
            est.put("effective_units", e.effectiveObservations());
            est.put("network_bytes", e.bytes());
            // what the units' network time was read from: "link" (bytes on the busiest host link over its rate),
            // "wait" (the engine's wait counter: no link rate known, or a plugin without per-host bytes), "mixed"
            est.put("signal", e.signal());
            est.put("link_units", e.linkObservations());
            Map<String, Object> at = new LinkedHashMap<>();
            for (double b : ModelDrift.SHARES) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("slowdown", e.slowdown(b));
                one.put("error", number(e.slowdownError(b))); // null: one unit has no spread
                at.put(Double.toString(b), one);
            }
            est.put("at", at);
            m.put("estimate", est);
        }
        m.put("table_slowdown_at", w.table() == null ? null : slowdowns(w.table()));
        if (w.corun() != null) { // what the co-run predictor replays for it: the table's record or a learnt one
            Map<String, Object> corun = new LinkedHashMap<>();
            corun.put("source", w.corunUnits() > 0 ? "learnt" : "table");
            corun.put("units", w.corunUnits());
            corun.put("seconds", w.corun().record().seconds());
            corun.put("mean_utilisation", w.corun().record().meanUtilisation());
            corun.put("network_bound", w.corun().networkBound());
            m.put("corun_profile", corun);
        }
        ModelDrift.Deviation d = w.deviation();
        if (d != null) {
            Map<String, Object> drift = new LinkedHashMap<>();
            drift.put("flagged", w.drifting());
            // false while the estimate rests on fewer units than a judgement needs (a job's setup stages)
            drift.put("judged", ModelDrift.judges(w.estimate()));
            drift.put("units_contradicting_in_a_row", w.contradicting());
            drift.put("share", d.share());
            drift.put("estimated", d.estimated());
            drift.put("table", d.table());
            drift.put("deviation", d.relative());
            drift.put("allowed", d.allowed());
            m.put("drift", drift);
        }
        return m;
    }

    private static Map<String, Double> slowdowns(SensitivityModel model) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (double b : ModelDrift.SHARES) {
            out.put(Double.toString(b), model.slowdown(b));
        }
        return out;
    }

    /** JSON has no NaN: unknown is null. */
    private static Double number(double x) {
        return Double.isNaN(x) ? null : x;
    }

    /** The fabric: the last push and its result, the ports being retried, and how drift is looked for. */
    private static Map<String, Object> fabric(FabricStatus f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", f.backend());
        PushOutcome push = f.lastPush();
        if (push != null) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("at", push.at().toString());
            p.put("version", push.version());
            p.put("configured", push.configured());
            p.put("released", push.released());
            p.put("failed", byPortName(push.failed()));
            m.put("last_push", p);
        } else {
            m.put("last_push", null);
        }
        Map<String, Object> retrying = new TreeMap<>();
        f.retrying().forEach((port, r) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("attempts", r.attempts());
            e.put("reason", r.reason());
            e.put("last_failed", r.lastFailed().toString());
            retrying.put(port.toString(), e);
        });
        m.put("retrying", retrying);
        DriftCheck check = f.driftCheck();
        if (check != null) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("every_seconds", check.every().toSeconds());
            c.put("last", check.last() == null ? null : check.last().toString());
            c.put("ports", check.ports());
            c.put("repairs", check.repairs());
            m.put("drift_check", c);
        } else {
            m.put("drift_check", null);
        }
        List<Map<String, Object>> agents = new ArrayList<>();
        for (AgentStatus a : f.agents()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("host", a.host());
            e.put("connected", a.connected());
            e.put("plan_version", a.planVersion());
            e.put("acked_version", a.ackedVersion());
            e.put("lag", a.lag());
            e.put("ports", a.ports());
            e.put("missing", a.missing());
            e.put("last_error", a.lastError());
            agents.add(e);
        }
        m.put("agents", agents);
        m.put("agents_missing", f.agents().stream().filter(AgentStatus::missing).map(AgentStatus::host).toList());
        return m;
    }

    /**
     * A group member's view: who it is, who leads, the members, what it programs, the split and its imbalance; the
     * hosts whose NICs it programs and the hosts' split (which member serves each host's agent).
     */
    private static Map<String, Object> group(GroupView g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("member", g.member());
        m.put("leader", g.leader());
        m.put("leads", g.leads());
        m.put("members", g.members());
        m.put("programming", g.programming());
        m.put("shares", g.shares());
        m.put("imbalance", g.imbalance());
        m.put("targets", g.targets());
        m.put("hosts_programming", g.hostsProgramming());
        m.put("host_targets", g.hostTargets());
        m.put("session_timeout_ms", g.sessionTimeoutMillis());
        return m;
    }

    /**
     * An application's raw work signals: how many units it reported, network wait over run time summed over all of
     * them, the sum, and the latest units (what its workload's estimate learnt from them is under {@code model}).
     */
    private static Map<String, Object> signals(AppSignals s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reported", s.reported());
        double share = s.networkWaitShare();
        m.put("network_wait_share", Double.isNaN(share) ? null : share);
        m.put("total", s.total());
        m.put("latest", s.latest());
        return m;
    }

    private static Map<String, String> byPortName(Map<PortId, String> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((p, what) -> out.put(p.toString(), what));
        return out;
    }

    /** A number that may be unknown (NaN): left out then, as JSON has no NaN. */
    private static void putNumber(Map<String, Object> m, String key, double value) {
        if (!Double.isNaN(value)) {
            m.put(key, value);
        }
    }
}
