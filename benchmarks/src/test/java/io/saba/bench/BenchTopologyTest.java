package io.saba.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class BenchTopologyTest {
    @Test
    void aShapeNeedingEscapingIsKeptAsGiven() throws Exception {
        String shape = "leaf-spine: 2 \"x\" 'y'\nz\\";
        ObjectNode n = BenchTopology.shaped(shape);
        assertEquals(shape, n.get("shape").asText());
        assertEquals("10.0.0.1", n.get("address-base").asText());
        assertEquals(2, n.size());
    }
}
