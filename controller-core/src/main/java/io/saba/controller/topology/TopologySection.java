package io.saba.controller.topology;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.saba.controller.ConfigBinding;
import java.util.List;
import java.util.Map;

/** The typed shapes of a topology section's three forms, against which {@link TopologyLoader} checks its input. */
final class TopologySection {
    private TopologySection() {
    }

    record Shape(String shape, Double gbps, Integer queues, @JsonProperty("address-base") String addressBase,
            Map<String, JsonNode> addresses, @JsonProperty("host-queues") Integer hostQueues) {
    }

    record FileRef(String file, @JsonProperty("host-queues") Integer hostQueues) {
    }

    record Explicit(List<Host> hosts, List<Switch> switches, List<Link> links, Map<String, JsonNode> addresses,
            @JsonProperty("host-queues") Integer hostQueues) {
    }

    /** {@code from-agents}: the hosts come from their agents' announcements ({@link AgentTopology}). */
    record FromAgents(@JsonProperty("from-agents") AgentSource fromAgents,
            @JsonProperty("host-queues") Integer hostQueues) {
    }

    /** One switch ({@code switch}, {@code queues}) or a fabric file with the switch each host hangs under. */
    record AgentSource(@JsonProperty("switch") String switchName, Integer queues,
            @JsonProperty("rate-gbps") Double rateGbps, String fabric, Map<String, String> under) {
    }

    record Host(String name, List<String> addresses) {
    }

    record Switch(String name, Integer queues) {
    }

    record Link(String a, String b, @JsonProperty("a-port") Integer aPort, @JsonProperty("b-port") Integer bPort,
            Double gbps) {
    }

    /** Checks a section (not a discovered one: its provider owns its keys) in the form its keys select. */
    static void check(JsonNode node, String source, String prefix) {
        if (node.has("from-agents")) {
            for (String other : List.of("file", "shape", "hosts", "switches", "links", "addresses")) {
                if (node.has(other)) {
                    throw new IllegalArgumentException(source + ": " + prefix + ": give 'from-agents' (hosts learned "
                            + "from their agents) or '" + other + "', not both");
                }
            }
            ConfigBinding.check(node, FromAgents.class, source, prefix);
            return;
        }
        Class<?> form = node.hasNonNull("file") ? FileRef.class : node.hasNonNull("shape") ? Shape.class
                : Explicit.class;
        ConfigBinding.check(node, form, source, prefix);
    }
}
