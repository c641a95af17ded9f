package io.saba.agents.controller;

import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackendProvider;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * {@code backend: agents} in the controller configuration:
 * <pre>
 * backend: agents
 * backend-options:
 *   ack-timeout-millis: 2000   # how long a push waits for the hosts' agents to acknowledge it (default 2000)
 * </pre>
 */
public final class AgentsBackendProvider implements FabricBackendProvider {
    @Override
    public String name() {
        return "agents";
    }

    @Override
    public FabricBackend create(Map<String, Object> options) {
        for (String key : options.keySet()) {
            if (!Set.of("ack-timeout-millis").contains(key)) {
                throw new IllegalArgumentException("backend-options." + key + ": unknown option of the agents "
                        + "backend; known: [ack-timeout-millis]");
            }
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
        return new AgentsBackend(Duration.ofMillis(millis));
    }
}
