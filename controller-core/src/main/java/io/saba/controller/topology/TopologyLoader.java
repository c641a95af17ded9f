package io.saba.controller.topology;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.controller.ConfigBinding;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link TopologyResolver} from YAML: either a topology file listing hosts (with addresses), switches
 * (with queues per port), and links (with ports and capacities), or a named shape from core.
 *
 * <pre>
 * # a file
 * hosts:
 *   - {name: h1, addresses: [10.0.0.1]}
 *   - {name: h2, addresses: [10.0.0.2, "fd00::2"]}
 * switches:
 *   - {name: s0, queues: 8}
 * links:
 *   - {a: h1, b: s0, b-port: 1, gbps: 10}     # ports optional: next free port on each node
 *   - {a: h2, b: s0, b-port: 2, gbps: 10}
 *
 * # or a shape (in the controller config's topology section)
 * shape: single-switch:8      # single-switch:N | fat-tree:K | spine-leaf (the paper's 1,944 hosts)
 * gbps: 10
 * queues: 8
 * address-base: 10.0.0.1     # hosts in natural name order get consecutive IPv4 addresses
 * addresses: {h1: [10.1.0.1]} # and/or explicit addresses per host
 *
 * # any of the three may add
 * host-queues: 8              # also manage each host's NIC egress (host-based enforcement) with 8 queues
 * </pre>
 */
public final class TopologyLoader {
    private TopologyLoader() {
    }

    /** Reads a topology file. */
    public static TopologyResolver load(Path file) throws IOException {
        JsonNode root = ConfigBinding.readTree(Files.readString(file), file.toString());
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + ": a topology file is a YAML mapping");
        }
        TopologySection.check(root, file.toString(), "");
        return fromNode(root, file.toString(), file.getParent());
    }

    /**
     * Checks a configuration's topology section (its keys and their types at every level) before it is read.
     *
     * @param source names the configuration; {@code prefix} is the section's path in it, e.g. "topology"
     */
    public static void check(JsonNode node, String source, String prefix) {
        TopologySection.check(node, source, prefix);
    }

    /**
     * From a configuration section: {@code file: PATH} (relative to {@code base}), a {@code shape}, or the file
     * format inline.
     */
    public static TopologyResolver fromNode(JsonNode node, String source, Path base) throws IOException {
        if (node.has("from-agents")) {
            throw new IllegalArgumentException(source + ": 'from-agents' belongs in a controller configuration's "
                    + "topology section (it needs the agents and the journal directory), not in a topology file");
        }
        TopologyResolver r;
        if (node.hasNonNull("file")) {
            Path f = Path.of(node.get("file").asText());
            r = load(base == null || f.isAbsolute() ? f : base.resolve(f));
        } else if (node.hasNonNull("shape")) {
            r = shape(node, source);
        } else {
            r = explicit(node, source);
        }
        return withHostEgress(r, node, source);
    }

    /** Applies {@code host-queues: N} when the section gives it (a configuration's key overrides its file's). */
    private static TopologyResolver withHostEgress(TopologyResolver r, JsonNode node, String source) {
        JsonNode q = node.get("host-queues");
        if (q == null || q.isNull()) {
            return r;
        }
        if (!q.canConvertToInt() || !q.isIntegralNumber()) {
            throw new IllegalArgumentException(source + ": 'host-queues' must be an integer ≥ 2, got '" + q.asText() + "'");
        }
        try {
            return r.withHostEgress(q.asInt());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
    }

    private static TopologyResolver shape(JsonNode n, String source) {
        String shape = n.get("shape").asText().trim();
        double gbps = n.path("gbps").asDouble(Topologies.PAPER_GBPS);
        int queues = n.path("queues").asInt(8);
        String[] parts = shape.split(":", 2);
        Topology t = switch (parts[0]) {
            case "single-switch" -> Topologies.singleSwitch(count(parts, source, shape), gbps, queues);
            case "fat-tree" -> Topologies.fatTree(count(parts, source, shape), gbps, queues);
            case "spine-leaf" -> {
                if (parts.length == 1) {
                    yield Topologies.spineLeaf();
                }
                String[] c = parts[1].split(",");
                if (c.length != 6) {
                    throw new IllegalArgumentException(source + ": spine-leaf takes pods,tors-per-pod,"
                            + "leaves-per-pod,servers-per-tor,spines,uplinks-per-leaf; got '" + parts[1] + "'");
                }
                int[] v = new int[6];
                for (int i = 0; i < 6; i++) {
                    v[i] = Integer.parseInt(c[i].trim());
                }
                yield Topologies.spineLeaf(v[0], v[1], v[2], v[3], v[4], v[5], gbps, queues);
            }
            default -> throw new IllegalArgumentException(source + ": unknown topology shape '" + shape
                    + "' (single-switch:N, fat-tree:K, spine-leaf)");
        };
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        if (n.hasNonNull("address-base")) {
            List<String> hosts = new ArrayList<>(t.hosts());
            hosts.sort(NATURAL);
            long base = ipv4(n.get("address-base").asText(), source);
            for (int i = 0; i < hosts.size(); i++) {
                addresses.computeIfAbsent(hosts.get(i), h -> new ArrayList<>()).add(ipv4String(base + i));
            }
        }
        addExplicitAddresses(n.path("addresses"), addresses, source);
        return new TopologyResolver(t, addresses);
    }

    private static int count(String[] parts, String source, String shape) {
        if (parts.length < 2) {
            throw new IllegalArgumentException(source + ": shape '" + shape + "' needs a size, e.g. "
                    + parts[0] + ":4");
        }
        try {
            return Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": shape size '" + parts[1] + "' is not an integer", e);
        }
    }

    private static TopologyResolver explicit(JsonNode n, String source) {
        Topology.Builder b = Topology.builder();
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        for (JsonNode h : list(n, "hosts", source)) {
            String name = text(h, "name", source + ": host");
            b.host(name);
            List<String> ips = new ArrayList<>();
            for (JsonNode a : h.path("addresses")) {
                ips.add(a.asText());
            }
            addresses.put(name, ips);
        }
        for (JsonNode s : list(n, "switches", source)) {
            String name = text(s, "name", source + ": switch");
            if (!s.hasNonNull("queues")) {
                throw new IllegalArgumentException(source + ": switch " + name + " needs 'queues' (per port)");
            }
            b.switchNode(name, s.get("queues").asInt());
        }
        for (JsonNode l : list(n, "links", source)) {
            String a = text(l, "a", source + ": link");
            String bn = text(l, "b", source + ": link");
            if (!l.hasNonNull("gbps")) {
                throw new IllegalArgumentException(source + ": link " + a + "-" + bn + " needs 'gbps'");
            }
            double gbps = l.get("gbps").asDouble();
            if (l.hasNonNull("a-port") && l.hasNonNull("b-port")) {
                b.link(a, l.get("a-port").asInt(), bn, l.get("b-port").asInt(), gbps);
            } else if (l.hasNonNull("a-port") || l.hasNonNull("b-port")) {
                throw new IllegalArgumentException(source + ": link " + a + "-" + bn
                        + " gives one port number; give both a-port and b-port or neither");
            } else {
                b.link(a, bn, gbps);
            }
        }
        addExplicitAddresses(n.path("addresses"), addresses, source);
        return new TopologyResolver(b.build(), addresses);
    }

    private static void addExplicitAddresses(JsonNode node, Map<String, List<String>> into, String source) {
        if (node.isMissingNode() || node.isNull()) {
            return;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException(source + ": 'addresses' maps host names to addresses");
        }
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            List<String> ips = into.computeIfAbsent(e.getKey(), h -> new ArrayList<>());
            if (e.getValue().isArray()) {
                e.getValue().forEach(v -> ips.add(v.asText()));
            } else {
                ips.add(e.getValue().asText());
            }
        }
    }

    private static Iterable<JsonNode> list(JsonNode n, String key, String source) {
        JsonNode v = n.path(key);
        if (!v.isArray()) {
            throw new IllegalArgumentException(source + ": '" + key + "' must be a list");
        }
        return v;
    }

    private static String text(JsonNode n, String key, String what) {
        if (!n.hasNonNull(key)) {
            throw new IllegalArgumentException(what + " needs '" + key + "': " + n);
        }
        return n.get(key).asText();
    }

    private static long ipv4(String s, String source) {
        try {
            byte[] b = InetAddress.getByName(s).getAddress();
            if (b.length != 4 || !s.matches("[0-9.]+")) {
                throw new IllegalArgumentException(source + ": address-base " + s + " is not an IPv4 literal");
            }
            return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(source + ": address-base " + s + " is not an IPv4 literal", e);
        }
    }

    private static String ipv4String(long v) {
        return ((v >> 24) & 0xFF) + "." + ((v >> 16) & 0xFF) + "." + ((v >> 8) & 0xFF) + "." + (v & 0xFF);
    }

    /** h2 before h10: digit runs compare as numbers. */
    static final Comparator<String> NATURAL = (x, y) -> {
        int i = 0;
        int j = 0;
        while (i < x.length() && j < y.length()) {
            char a = x.charAt(i);
            char b = y.charAt(j);
            if (Character.isDigit(a) && Character.isDigit(b)) {
                int si = i;
                int sj = j;
                while (i < x.length() && Character.isDigit(x.charAt(i))) {
                    i++;
                }
                while (j < y.length() && Character.isDigit(y.charAt(j))) {
                    j++;
                }
                int c = new java.math.BigInteger(x.substring(si, i)).compareTo(
                        new java.math.BigInteger(y.substring(sj, j)));
                if (c != 0) {
                    return c;
                }
            } else {
                if (a != b) {
                    return Character.compare(a, b);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(x.length() - i, y.length() - j);
    };
}
