package io.saba.testbed;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.UncheckedIOException;
import java.math.BigDecimal;

/**
 * The topology file the controller reads, in the controller's topology format ({@code TopologyLoader}):
 * {@code hosts: [{name, addresses}]}, {@code switches: [{name, queues}]},
 * {@code links: [{a, a-port, b, b-port, gbps}]}. Host hN's link is port 0 on the host (its own egress, for
 * host-based enforcement) and port N on the switch (the switch's egress toward hN). Written with Jackson's YAML
 * writer, the library the controller reads it with, under a comment naming the testbed's namespaces.
 */
public final class TopologyFile {
    /** Queues per switch port the controller may use: one per Ethernet priority level (DSCP class selector). */
    public static final int QUEUES = 8;

    private static final YAMLMapper YAML = YAMLMapper.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private TopologyFile() {
    }

    public static String render(TestbedSpec s) {
        // the testbed's name is [a-z0-9-] (TestbedSpec), so it cannot end the comment line
        String header = "# Saba testbed '" + s.name() + "', written by `saba testbed up`.\n"
                + "# Host hN is network namespace " + TestbedSpec.namespacePrefix(s.name()) + "hN (device "
                + TestbedSpec.HOST_DEVICE + "); switch " + TestbedSpec.SWITCH + " is " + s.switchNamespace()
                + ", its port N is device pN (egress toward hN).\n";
        try {
            return header + YAML.writeValueAsString(tree(s));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file's content as a tree: what {@link #render} writes below its comment. */
    static ObjectNode tree(TestbedSpec s) {
        ObjectNode root = YAML.createObjectNode();
        ArrayNode hosts = root.putArray("hosts");
        for (int i = 1; i <= s.hosts(); i++) {
            ObjectNode host = hosts.addObject().put("name", s.hostName(i));
            host.putArray("addresses").add(s.address(i));
        }
        root.putArray("switches").addObject().put("name", TestbedSpec.SWITCH).put("queues", QUEUES);
        ArrayNode links = root.putArray("links");
        BigDecimal gbps = new BigDecimal(gbps(s.linkRateBps()));
        for (int i = 1; i <= s.hosts(); i++) {
            links.addObject().put("a", s.hostName(i)).put("a-port", 0).put("b", TestbedSpec.SWITCH)
                    .put("b-port", i).put("gbps", gbps);
        }
        return root;
    }

    /** Link rate in Gbit/s as a plain decimal (0.1 for 100 Mbit/s). */
    static String gbps(long bps) {
        return new java.math.BigDecimal(bps).movePointLeft(9).stripTrailingZeros().toPlainString();
    }
}
