package io.saba.controller.testbed;

/**
 * The topology file the controller reads, in the project's simple YAML shape:
 * {@code hosts: [{name, address}]}, {@code switches: [{name, ports: [{port, peer, gbps}]}]}. Written by hand
 * (the shape is flat and every value is a plain token), so the testbed needs no YAML library.
 */
public final class TopologyFile {
    private TopologyFile() {
    }

    public static String render(TestbedSpec s) {
        StringBuilder y = new StringBuilder();
        y.append("# Saba testbed '").append(s.name()).append("', written by `saba testbed up`.\n");
        y.append("# Host hN is network namespace ").append(TestbedSpec.namespacePrefix(s.name()))
                .append("hN (device ").append(TestbedSpec.HOST_DEVICE).append("); switch ").append(TestbedSpec.SWITCH)
                .append(" is ").append(s.switchNamespace()).append(", its port i is device p<i> (egress toward hi).\n");
        y.append("hosts:\n");
        for (int i = 1; i <= s.hosts(); i++) {
            y.append("  - name: ").append(s.hostName(i)).append('\n');
            y.append("    address: ").append(s.address(i)).append('\n');
        }
        y.append("switches:\n");
        y.append("  - name: ").append(TestbedSpec.SWITCH).append('\n');
        y.append("    ports:\n");
        String gbps = gbps(s.linkRateBps());
        for (int i = 1; i <= s.hosts(); i++) {
            y.append("      - port: ").append(i).append('\n');
            y.append("        peer: ").append(s.hostName(i)).append('\n');
            y.append("        gbps: ").append(gbps).append('\n');
        }
        return y.toString();
    }

    /** Link rate in Gbit/s as a plain decimal (0.1 for 100 Mbit/s). */
    static String gbps(long bps) {
        return new java.math.BigDecimal(bps).movePointLeft(9).stripTrailingZeros().toPlainString();
    }
}
