package io.saba.agents.controller;

import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackendProvider;
import io.saba.controller.fabric.FabricBackends;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code backend: agents} in the controller configuration:
 * <pre>
 * backend: agents
 * backend-options:
 *   ack-timeout-millis: 2000   # how long a push waits for the hosts' agents to acknowledge it (default 2000)
 *   switches: linux            # the backend of the switch ports (default: none, switch ports are not enforced)
 *   switches.ports: "s1:3=saba-x-sw/p3@100mbit"   # that backend's options, each prefixed with "switches."
 * </pre>
 */
public final class AgentsBackendProvider implements FabricBackendProvider {
    @Override
    public String name() {
        return "agents";
    }

    @Override
    public FabricBackend create(Map<String, Object> options) {
        Map<String, Object> switchOptions = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : options.entrySet()) {
            if (e.getKey().startsWith("switches.")) {
                switchOptions.put(e.getKey().substring("switches.".length()), e.getValue());
            } else if (!Set.of("ack-timeout-millis", "switches").contains(e.getKey())) {
                throw new IllegalArgumentException("backend-options." + e.getKey() + ": unknown option of the agents "
                        + "backend; known: [ack-timeout-millis, switches, switches.*]");
            }
        }
        Object switches = options.get("switches");
        if (switches == null && !switchOptions.isEmpty()) {
            throw new IllegalArgumentException("backend-options: switches.* options given without 'switches'");
        }
        if ("agents".equals(String.valueOf(switches))) {
            throw new IllegalArgumentException("backend-options.switches: the switch ports need another backend");
        }
        String ms = options.getOrDefault("ack-timeout-millis", "2000").toString();
        long millis;
        try {
            millis = Long.parseLong(ms);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("backend-options.ack-timeout-millis: '" + ms + "' is not a number", e);
        }
        if (millis <= 0) {
            throw new IllegalArgumentException("backend-options.ack-timeout-millis must be > 0, got " + millis);
        }
        return new AgentsBackend(Duration.ofMillis(millis), switches == null ? null
                : FabricBackends.create(switches.toString(), switchOptions));
    }
}
