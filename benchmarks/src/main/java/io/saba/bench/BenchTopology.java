package io.saba.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.controller.topology.TopologyLoader;

/**
 * The benchmarks' topology settings, as the controller's configuration would hold them: a shape
 * ({@code TopologyLoader}'s {@code shape:}) whose hosts are numbered from 10.0.0.1.
 */
final class BenchTopology {
    private BenchTopology() {
    }

    /** {@code {shape, address-base}} for {@link TopologyLoader#fromNode}; callers may add gbps and queues. */
    static ObjectNode shaped(String shape) {
        return new ObjectMapper().createObjectNode().put("shape", shape).put("address-base", "10.0.0.1");
    }
}
