package io.saba.testbed;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The shape of a testbed and the names derived from it.
 *
 * @param name        testbed name (namespaces are saba-NAME-…)
 * @param hosts       number of hosts, h1..hN
 * @param linkRateBps link rate of every host link, bits per second
 * @param subnet      IPv4 /24 prefix such as "10.77.0"; host i gets PREFIX.i
 * @param tcp         the TCP congestion control every host runs (net.ipv4.tcp_congestion_control), pinned so that
 *                    the testbed behaves alike on every machine: namespaces otherwise inherit the machine's default
 */
public record TestbedSpec(String name, int hosts, long linkRateBps, String subnet, String tcp) {
    /**
     * Linux's own default. A machine's default may be another (this project's VMs run BBR): with BBR the testbed's
     * 10 ms queues lose 7x as many segments with two flows, and eight flows split a link 0.4 to 6 Mbit/s.
     */
    public static final String DEFAULT_TCP = "cubic";
    private static final Pattern TCP = Pattern.compile("[a-z0-9_]{1,16}");
    public static final String SWITCH = "sw";
    public static final String BRIDGE = "br0";
    public static final String HOST_DEVICE = "eth0";
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,15}");
    private static final Pattern PREFIX = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    public TestbedSpec {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("testbed name '" + name + "' must be 1-16 of [a-z0-9-], starting "
                    + "with a letter or digit");
        }
        if (hosts < 2 || hosts > 250) {
            throw new IllegalArgumentException("a testbed needs 2..250 hosts, got " + hosts);
        }
        if (linkRateBps < 8_000) {
            throw new IllegalArgumentException("link rate " + linkRateBps + " bit/s is below 8 kbit/s");
        }
        var m = PREFIX.matcher(subnet == null ? "" : subnet);
        if (!m.matches() || !isPrivate(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)))) {
            throw new IllegalArgumentException("subnet '" + subnet + "' must be a private /24 prefix like 10.77.0");
        }
        if (tcp == null || !TCP.matcher(tcp).matches()) {
            throw new IllegalArgumentException("TCP congestion control '" + tcp + "' is not a name like cubic or bbr");
        }
    }

    /** A testbed on {@link #DEFAULT_TCP}. */
    public TestbedSpec(String name, int hosts, long linkRateBps, String subnet) {
        this(name, hosts, linkRateBps, subnet, DEFAULT_TCP);
    }

    public static TestbedSpec of(String name, int hosts, long linkRateBps) {
        return new TestbedSpec(name, hosts, linkRateBps, "10.77.0");
    }

    private static boolean isPrivate(int a, int b) {
        return a == 10 || (a == 172 && b >= 16 && b <= 31) || (a == 192 && b == 168);
    }

    public static String namespacePrefix(String name) {
        return "saba-" + name + "-";
    }

    public String switchNamespace() {
        return namespacePrefix(name) + SWITCH;
    }

    public String hostName(int i) {
        return "h" + i;
    }

    public String hostNamespace(int i) {
        return namespacePrefix(name) + hostName(i);
    }

    /** Namespace of a node by its topology name ("sw" or "h3"). */
    public String namespaceOf(String node) {
        if (node.equals(SWITCH)) {
            return switchNamespace();
        }
        return hostNamespace(hostIndex(node));
    }

    /** 1-based host index of "h3", checked against the host count. */
    public int hostIndex(String host) {
        try {
            int i = Integer.parseInt(host.startsWith("h") ? host.substring(1) : "x");
            if (i >= 1 && i <= hosts) {
                return i;
            }
        } catch (NumberFormatException e) {
            // fall through to the error below
        }
        throw new IllegalArgumentException("no host '" + host + "' in testbed " + name + " (hosts are h1..h" + hosts
                + ", the switch is " + SWITCH + ")");
    }

    public String address(int i) {
        return subnet + "." + i;
    }

    /** The switch's device toward host i, i.e. switch port i. */
    public String switchPortDevice(int i) {
        return "p" + i;
    }

    /** Where {@code up} keeps the spec and the topology file. */
    public static Path stateDir(String name) {
        return Path.of("/run/saba/testbed", name);
    }

    void save(Path file) throws IOException {
        Properties p = new Properties();
        p.setProperty("name", name);
        p.setProperty("hosts", Integer.toString(hosts));
        p.setProperty("linkRateBps", Long.toString(linkRateBps));
        p.setProperty("subnet", subnet);
        p.setProperty("tcp", tcp);
        Files.createDirectories(file.getParent());
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "saba testbed (written by saba testbed up)");
        }
    }

    /** Reads what {@code up} saved for a testbed. */
    public static TestbedSpec load(String name) throws IOException {
        Path file = stateDir(name).resolve("testbed.properties");
        if (!Files.exists(file)) {
            throw new IOException("testbed " + name + " is not up (no " + file + ")");
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        }
        return new TestbedSpec(p.getProperty("name"), Integer.parseInt(p.getProperty("hosts")),
                Long.parseLong(p.getProperty("linkRateBps")), p.getProperty("subnet"),
                p.getProperty("tcp", DEFAULT_TCP));
    }
}
