package io.saba.agents.host;

import io.saba.controller.fabric.linux.Rates;

/**
 * One {@code --nic} of {@code saba agent}: {@code [PORT=]DEV[@RATE]}. The port is the host's port number in the
 * controller's topology (omitted: with one NIC it takes every port of the host); the rate overrides the speed the
 * kernel reports (needed where it reports none, e.g. a veth).
 *
 * @param port   the topology's port number, or -1 for "every port" (one NIC only)
 * @param device the network device
 * @param rateBps the link rate in bit/s, or 0 to read it from the device
 */
public record NicSpec(int port, String device, long rateBps) {
    /** @throws IllegalArgumentException naming the text when it is not [PORT=]DEV[@RATE] */
    public static NicSpec parse(String text) {
        String t = text.trim();
        int port = -1;
        int eq = t.indexOf('=');
        try {
            if (eq >= 0) {
                port = Integer.parseInt(t.substring(0, eq).trim());
                t = t.substring(eq + 1).trim();
            }
            long rate = 0;
            int at = t.lastIndexOf('@');
            if (at >= 0) {
                rate = Rates.parse(t.substring(at + 1));
                t = t.substring(0, at);
            }
            if (t.isBlank() || port < -1 || (eq >= 0 && port < 0)) {
                throw new IllegalArgumentException("empty device or negative port");
            }
            return new NicSpec(port, t, rate);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--nic '" + text + "' is not [PORT=]DEV[@RATE] (" + e.getMessage()
                    + ")", e);
        }
    }

    @Override
    public String toString() {
        return (port < 0 ? "" : port + "=") + device + (rateBps > 0 ? "@" + rateBps + "bit" : "");
    }
}
