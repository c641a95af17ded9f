package io.saba.agents.controller;

import io.saba.controller.Metrics;
import io.saba.controller.fabric.AgentStatus;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/** The host agents on {@code /metrics}: per host, connected, acknowledged version, lag, error; the missing count. */
final class AgentMetrics {
    private AgentMetrics() {
    }

    static void register(Metrics metrics, Supplier<List<AgentStatus>> agents) {
        metrics.labelledGauge("saba_agent_connected", "1 while the host's agent has its plan stream open", "host",
                () -> perHost(agents, a -> a.connected() ? 1.0 : 0.0));
        metrics.labelledGauge("saba_agent_acked_version", "the newest plan version the host's agent acknowledged",
                "host", () -> perHost(agents, a -> (double) a.ackedVersion()));
        metrics.labelledGauge("saba_agent_lag_versions", "how many plan versions the host's agent is behind its "
                + "host's plan", "host", () -> perHost(agents, a -> (double) a.lag()));
        metrics.labelledGauge("saba_agent_error", "1 while the host's agent reports refused ports or did not "
                + "acknowledge in time", "host", () -> perHost(agents, a -> a.lastError() == null ? 0.0 : 1.0));
        metrics.gauge("saba_agents_missing", "hosts with a plan and no agent connected (their plan is not enforced)",
                () -> agents.get().stream().filter(AgentStatus::missing).count());
    }

    private static Map<String, Double> perHost(Supplier<List<AgentStatus>> agents,
                                               Function<AgentStatus, Double> value) {
        Map<String, Double> out = new TreeMap<>();
        agents.get().forEach(a -> out.put(a.host(), value.apply(a)));
        return out;
    }
}
