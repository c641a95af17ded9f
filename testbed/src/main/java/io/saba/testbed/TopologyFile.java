package io.saba.testbed;

/**
 * The topology file the controller reads, in the controller's topology format ({@code TopologyLoader}):
 * {@code hosts: [{name, addresses}]}, {@code switches: [{name, queues}]},
 * {@code links: [{a, a-port, b, b-port, gbps}]}. Host hN's link is port 0 on the host (its own egress, for
 * host-based enforcement) and port N on the switch (the switch's egress toward hN). Written by hand (the shape is
 * flat and every value is a plain token), so the testbed needs no YAML library.
 */
public final class TopologyFile {
    /** Queues per switch port the controller may use: one per Ethernet priority level (DSCP class selector). */
    public static final int QUEUES = 8;

    private TopologyFile() {
    }

    public static String render(TestbedSpec s) {
        StringBuilder y = new StringBuilder();
        y.append("# Saba testbed '").append(s.name()).append("', written by `saba testbed up`.\n");
        y.append("# Host hN is network namespace ").append(TestbedSpec.namespacePrefix(s.name()))
                .append("hN (device ").append(TestbedSpec.HOST_DEVICE).append("); switch ").append(TestbedSpec.SWITCH)
                .append(" is ").append(s.switchNamespace()).append(", its port N is device pN (egress toward hN).\n");
        y.append("hosts:\n");
        for (int i = 1; i <= s.hosts(); i++) {
            y.append("  - name: ").append(s.hostName(i)).append('\n');
            y.append("    addresses: [").append(s.address(i)).append("]\n");
        }
        y.append("switches:\n");
        y.append("  - name: ").append(TestbedSpec.SWITCH).append('\n');
        y.append("    queues: ").append(QUEUES).append('\n');
        y.append("links:\n");
        String gbps = gbps(s.linkRateBps());
        for (int i = 1; i <= s.hosts(); i++) {
            y.append("  - {a: ").append(s.hostName(i)).append(", a-port: 0, b: ").append(TestbedSpec.SWITCH)
                    .append(", b-port: ").append(i).append(", gbps: ").append(gbps).append("}\n");
        }
        return y.toString();
    }

    /** Link rate in Gbit/s as a plain decimal (0.1 for 100 Mbit/s). */
    static String gbps(long bps) {
        return new java.math.BigDecimal(bps).movePointLeft(9).stripTrailingZeros().toPlainString();
    }
}
