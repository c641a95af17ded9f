package io.saba.testbed;

import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.PlainLink;
import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a namespace testbed up and down (see the package description for its shape). Every step shells out to
 * {@code ip}/{@code tc}; a failing step names the command, its exit code and stderr, and {@link #up} tears down
 * what it had built before rethrowing.
 */
public final class Testbed {
    private static final Logger log = LoggerFactory.getLogger(Testbed.class);

    private final CommandRunner shell;

    public Testbed(CommandRunner shell) {
        this.shell = shell;
    }

    /** What the testbed runs besides ip, each with the Debian package that has it. */
    private static final List<List<String>> TOOLS = List.of(List.of("tc", "-V", "iproute2"),
            List.of("ethtool", "--version", "ethtool"), List.of("sysctl", "--version", "procps"));

    /**
     * Throws with a clear message unless we can create namespaces and shape them (root; iproute2 and ethtool
     * present), before anything is built.
     */
    public void requireRoot() {
        String uid = io.saba.process.Host.uid(shell);
        if (!uid.equals("0")) {
            throw new IllegalStateException("the testbed needs root (network namespaces, tc); running as uid " + uid);
        }
        CommandResult ip = shell.run(List.of("ip", "netns", "list"));
        if (!ip.ok()) {
            throw new IllegalStateException("`ip netns` does not work here (install iproute2): "
                    + io.saba.process.CommandException.describe(ip));
        }
        for (List<String> tool : TOOLS) {
            if (!shell.run(tool.subList(0, 2)).ok()) {
                throw new IllegalStateException("the testbed needs `" + tool.get(0) + "`, which is not installed "
                        + "(Debian package " + tool.get(2) + ")");
            }
        }
    }

    /**
     * Builds the testbed and writes its topology file; returns that file. If a testbed of this name is already up
     * with the same shape, only rewrites the files (idempotent); with another shape, refuses.
     */
    public Path up(TestbedSpec spec) {
        requireRoot();
        List<String> existing = namespaces(spec.name());
        if (!existing.isEmpty()) {
            TestbedSpec saved = null;
            try {
                saved = TestbedSpec.load(spec.name());
            } catch (IOException e) {
                log.debug("no saved spec: {}", e.getMessage());
            }
            if (spec.equals(saved) && existing.size() == spec.hosts() + 1) {
                log.info("testbed {} is already up", spec.name());
                return writeFiles(spec);
            }
            throw new IllegalStateException("testbed " + spec.name() + " already exists with another shape ("
                    + existing + "); run `saba testbed down --name " + spec.name() + "` first");
        }
        allowCongestionControl(spec.tcp());
        try {
            build(spec);
            return writeFiles(spec);
        } catch (RuntimeException e) {
            log.warn("testbed {} failed half-way, removing what was built: {}", spec.name(), e.getMessage());
            down(spec.name());
            throw e;
        }
    }

    private void build(TestbedSpec s) {
        String sw = s.switchNamespace();
        shell.check("ip", "netns", "add", sw);
        shell.check("ip", "-n", sw, "link", "set", "lo", "up");
        shell.check("ip", "-n", sw, "link", "add", TestbedSpec.BRIDGE, "type", "bridge");
        shell.check("ip", "-n", sw, "link", "set", TestbedSpec.BRIDGE, "up");
        for (int i = 1; i <= s.hosts(); i++) {
            String h = s.hostNamespace(i);
            String p = s.switchPortDevice(i);
            shell.check("ip", "netns", "add", h);
            // Created inside the switch namespace with its peer moved straight into the host's: nothing ever
            // appears in the machine's own namespace.
            shell.check("ip", "-n", sw, "link", "add", p, "type", "veth", "peer", "name", TestbedSpec.HOST_DEVICE,
                    "netns", h);
            shell.check("ip", "-n", sw, "link", "set", p, "master", TestbedSpec.BRIDGE);
            shell.check("ip", "-n", sw, "link", "set", p, "up");
            shell.check("ip", "-n", h, "link", "set", "lo", "up");
            shell.check("ip", "-n", h, "addr", "add", s.address(i) + "/24", "dev", TestbedSpec.HOST_DEVICE);
            shell.check("ip", "-n", h, "link", "set", TestbedSpec.HOST_DEVICE, "up");
            // Full-size frames on the wire, as a real link carries: with segmentation offload the qdiscs would
            // queue and shape 64 KB super-packets, making buffers effectively unbounded and shares lumpy.
            shell.check("ip", "netns", "exec", sw, "ethtool", "-K", p, "tso", "off", "gso", "off");
            shell.check("ip", "netns", "exec", h, "ethtool", "-K", TestbedSpec.HOST_DEVICE, "tso", "off", "gso", "off");
            // Both directions of the link are shaped: the switch's egress toward the host (the port Saba
            // divides) and the host's own egress (so a sender cannot exceed its NIC either).
            PlainLink.install(shell, new LinuxPort(sw, p, s.linkRateBps()));
            PlainLink.install(shell, new LinuxPort(h, TestbedSpec.HOST_DEVICE, s.linkRateBps()));
            shell.check("ip", "netns", "exec", h, "sysctl", "-qw", TCP_SYSCTL + "=" + s.tcp());
        }
        log.info("testbed {} up: {} hosts at {} bit/s on {}.0/24, TCP {}", s.name(), s.hosts(), s.linkRateBps(),
                s.subnet(), s.tcp());
    }

    private static final String TCP_SYSCTL = "net.ipv4.tcp_congestion_control";
    private static final String TCP_ALLOWED = "net.ipv4.tcp_allowed_congestion_control";

    /**
     * Makes the spec's TCP congestion control one the testbed's hosts may choose, before anything is built: a
     * namespace may only default to an algorithm the machine allows (tcp_allowed_congestion_control, one list for
     * the whole machine), so one that is available but not allowed is added to that list; it only widens what
     * unprivileged sockets may pick. One the kernel lacks is refused by name.
     */
    private void allowCongestionControl(String tcp) {
        String available = shell.check("sysctl", "-n", "net.ipv4.tcp_available_congestion_control").strip();
        if (!List.of(available.split("\\s+")).contains(tcp)) {
            throw new IllegalArgumentException("TCP congestion control '" + tcp + "' is not available on this machine"
                    + " (available: " + available + "; a module may add it: modprobe tcp_" + tcp + ")");
        }
        String allowed = shell.check("sysctl", "-n", TCP_ALLOWED).strip();
        if (!List.of(allowed.split("\\s+")).contains(tcp)) {
            shell.check("sysctl", "-qw", TCP_ALLOWED + "=" + allowed + " " + tcp);
            log.info("added {} to the machine's {} so that the testbed's hosts may run it", tcp, TCP_ALLOWED);
        }
    }

    private Path writeFiles(TestbedSpec spec) {
        Path dir = TestbedSpec.stateDir(spec.name());
        try {
            spec.save(dir.resolve("testbed.properties"));
            Path topo = dir.resolve("topology.yaml");
            Files.writeString(topo, TopologyFile.render(spec));
            return topo;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the testbed's files under " + dir, e);
        }
    }

    /**
     * Removes every namespace of the testbed (stopping the processes still running inside them first, since a
     * namespace with a live process outlives {@code ip netns del}) and its state files. Idempotent.
     *
     * @return the namespaces removed
     */
    public List<String> down(String name) {
        List<String> removed = new ArrayList<>();
        for (String ns : namespaces(name)) {
            killInside(ns);
            CommandResult r = shell.run(List.of("ip", "netns", "del", ns));
            if (r.ok()) {
                removed.add(ns);
            } else {
                log.warn("{}", io.saba.process.CommandException.describe(r));
            }
        }
        Path dir = TestbedSpec.stateDir(name);
        try {
            Files.deleteIfExists(dir.resolve("topology.yaml"));
            Files.deleteIfExists(dir.resolve("testbed.properties"));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            log.warn("could not remove {}: {}", dir, e.getMessage());
        }
        return removed;
    }

    private void killInside(String ns) {
        CommandResult pids = shell.run(List.of("ip", "netns", "pids", ns));
        if (!pids.ok() || pids.stdout().isBlank()) {
            return;
        }
        List<String> kill = new ArrayList<>(List.of("kill", "-TERM"));
        kill.addAll(List.of(pids.stdout().strip().split("\\s+")));
        log.info("stopping processes left in {}: {}", ns, kill.subList(2, kill.size()));
        shell.run(kill);
    }

    /** Namespaces named saba-NAME-*. */
    public List<String> namespaces(String name) {
        String prefix = TestbedSpec.namespacePrefix(name);
        List<String> found = new ArrayList<>();
        for (String line : shell.check("ip", "netns", "list").split("\n")) {
            String ns = line.trim().split("\\s+")[0];
            if (ns.startsWith(prefix)) {
                found.add(ns);
            }
        }
        return found;
    }

    /** A human-readable report: hosts, addresses, and each switch port's HTB classes. */
    public String status(String name) {
        List<String> ns = namespaces(name);
        TestbedSpec s;
        try {
            s = TestbedSpec.load(name);
        } catch (IOException e) {
            return ns.isEmpty() ? "testbed " + name + ": down\n"
                    : "testbed " + name + ": namespaces " + ns + " exist but " + e.getMessage() + "\n";
        }
        StringBuilder out = new StringBuilder();
        out.append(String.format("testbed %s: %d hosts, link %s Gbit/s, TCP %s, topology %s%n", name, s.hosts(),
                TopologyFile.gbps(s.linkRateBps()), s.tcp(), TestbedSpec.stateDir(name).resolve("topology.yaml")));
        for (int i = 1; i <= s.hosts(); i++) {
            boolean present = ns.contains(s.hostNamespace(i));
            out.append(String.format("  %-4s %-15s %s%s%n", s.hostName(i), s.address(i), s.hostNamespace(i),
                    present ? "" : "  (MISSING)"));
        }
        if (!ns.contains(s.switchNamespace())) {
            return out.append("  switch namespace ").append(s.switchNamespace()).append(" MISSING\n").toString();
        }
        for (int i = 1; i <= s.hosts(); i++) {
            LinuxPort p = new LinuxPort(s.switchNamespace(), s.switchPortDevice(i), s.linkRateBps());
            out.append(String.format("  sw port %d (%s → %s):%n", i, s.switchPortDevice(i), s.hostName(i)));
            for (String line : PlainLink.describe(shell, p).split("\n")) {
                out.append("      ").append(line.strip()).append('\n');
            }
        }
        return out.toString();
    }

    /** The argument vector that runs {@code command} inside a node ("h2", or "sw" for the switch). */
    public static List<String> inNode(TestbedSpec spec, String node, List<String> command) {
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", spec.namespaceOf(node)));
        c.addAll(command);
        return c;
    }
}
