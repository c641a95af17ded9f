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

    record Host(String name, List<String> addresses) {
    }

    record Switch(String name, Integer queues) {
    }

    record Link(String a, String b, @JsonProperty("a-port") Integer aPort, @JsonProperty("b-port") Integer bPort,
            Double gbps) {
    }

    /** Checks a section (not a discovered one: its provider owns its keys) in the form its keys select. */
    static void check(JsonNode node, String source, String prefix) {
        Class<?> form = node.hasNonNull("file") ? FileRef.class : node.hasNonNull("shape") ? Shape.class
                : Explicit.class;
        ConfigBinding.check(node, form, source, prefix);
    }
}
