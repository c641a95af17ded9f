package io.saba.controller.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.saba.controller.ConfigBinding;
import io.saba.core.alloc.PortId;
import io.saba.core.files.DurableFile;
import io.saba.core.topology.Link;
import io.saba.proto.v1.AgentNic;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A topology built from the host agents' announcements ({@code topology: {from-agents: ...}}) instead of a
 * hand-written file: each host whose agent announces is linked to a switch, at its NIC's announced link rate, and
 * owns the addresses its agent announced (how the controller maps a connection's endpoints to hosts).
 *
 * <pre>
 * topology: {from-agents: {switch: tor1, queues: 8, rate-gbps: 10}, host-queues: 8}   # one switch
 * topology: {from-agents: {fabric: fabric.yaml, under: {node1: leaf1, node2: leaf2}, rate-gbps: 10}, host-queues: 8}
 * </pre>
 *
 * <p>{@code fabric} is a topology file of switches and the links between them (no hosts); {@code under} names the
 * switch each host hangs under, and a host not named there is refused. {@code rate-gbps} is the rate of a NIC that
 * announces none (a veth); without it such a host is refused.
 *
 * <p>Every change builds the whole topology again through {@link TopologyLoader} from its file format (the one
 * place topology YAML is read and checked), writes it to {@code topology-from-agents.yaml} in the journal directory
 * (a temporary file moved into place, so a crash leaves the old file or the new one) and then announces it through
 * {@link #onPathsChanged}, on which the controller resolves every open connection again; connections from an
 * address no host owns yet wait for it instead of being refused. The file is read back at start, so hosts learned
 * stay known across a restart whether or not their agents have reconnected; a host whose agent disconnects stays
 * too (its applications may still run). It is also a topology file an operator can copy into {@code file:}.
 *
 * <p>A host's switch port is given in announcement order and kept. A host that announces again with a different NIC
 * (addresses or rate) is updated in place: addresses are assigned as a machine boots, so the first announcement may
 * lack some. A host announcing more than one NIC, no usable address, no rate without {@code rate-gbps}, or an
 * address another host owns is refused with one line, and nothing learned before changes.
 */
public final class AgentTopology implements PathResolver {
    /** The file in the journal directory that keeps the hosts learned. */
    public static final String STATE_FILE = "topology-from-agents.yaml";
    private static final YAMLMapper YAML = new YAMLMapper();

    private final String source;
    private final ObjectNode fabric;
    private final String singleSwitch;
    private final Map<String, String> under;
    private final double defaultGbps;
    private final int hostQueues;
    private final int minQueues;
    private final Path stateFile;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Host → what its agent announced, in announcement order (which gives the switch ports). */
    private final Map<String, Learned> hosts = new LinkedHashMap<>();
    private volatile TopologyResolver current;

    /** What a host's agent announced: the switch it hangs under, its NIC's rate and its addresses (normalised). */
    private record Learned(String under, double gbps, List<String> addresses) {
    }

    private AgentTopology(String source, ObjectNode fabric, String singleSwitch, Map<String, String> under,
                          double defaultGbps, int hostQueues, Path stateFile) {
        this.source = source;
        this.fabric = fabric;
        this.singleSwitch = singleSwitch;
        this.under = under;
        this.defaultGbps = defaultGbps;
        this.hostQueues = hostQueues;
        this.stateFile = stateFile;
        int min = hostQueues > 0 ? hostQueues : Integer.MAX_VALUE;
        for (JsonNode s : fabric.path("switches")) {
            min = Math.min(min, s.path("queues").asInt());
        }
        this.minQueues = min;
    }

    /**
     * From a configuration's topology section (checked already: {@link TopologyLoader#check}), with the hosts kept in
     * {@code stateDir}'s {@value #STATE_FILE}.
     *
     * @param stateDir the journal directory, or null to keep the hosts learned in memory only
     */
    public static AgentTopology fromNode(JsonNode section, String source, Path base, Path stateDir)
            throws IOException {
        JsonNode o = section.path("from-agents");
        String sw = o.path("switch").asText(null);
        String fabricFile = o.path("fabric").asText(null);
        if ((sw == null) == (fabricFile == null)) {
            throw new IllegalArgumentException(source + ": from-agents needs either 'switch' (one switch for every "
                    + "host) or 'fabric' (a file of switches) with 'under'");
        }
        ObjectNode fabric;
        Map<String, String> under = new TreeMap<>();
        if (sw != null) {
            if (o.has("under")) {
                throw new IllegalArgumentException(source + ": from-agents.under goes with 'fabric', not 'switch'");
            }
            fabric = JsonNodeFactory.instance.objectNode();
            fabric.putArray("switches").addObject().put("name", sw).put("queues", o.path("queues").asInt(8));
            fabric.putArray("links");
        } else {
            if (o.has("queues")) {
                throw new IllegalArgumentException(source + ": from-agents.queues goes with 'switch'; a fabric "
                        + "file gives each switch's queues");
            }
            Path f = Path.of(fabricFile);
            f = base == null || f.isAbsolute() ? f : base.resolve(f);
            fabric = fabricFile(f);
            o.path("under").fields().forEachRemaining(e -> under.put(e.getKey(), e.getValue().asText()));
        }
        JsonNode q = section.path("host-queues");
        AgentTopology t = new AgentTopology(source, fabric, sw, under, o.path("rate-gbps").asDouble(0),
                q.isMissingNode() || q.isNull() ? 0 : q.asInt(), stateDir == null ? null : stateDir.resolve(STATE_FILE));
        t.current = t.build(t.tree(t.hosts)); // checks the fabric and the switch names of 'under'
        for (String s : under.values()) {
            if (!t.current.topology().switches().contains(s)) {
                throw new IllegalArgumentException(source + ": from-agents.under names switch " + s
                        + ", which the fabric file does not have");
            }
        }
        if (t.stateFile != null && Files.exists(t.stateFile)) {
            t.restore();
        }
        return t;
    }

    /** A fabric file: the topology file format with switches and links between them, and no hosts. */
    private static ObjectNode fabricFile(Path f) throws IOException {
        JsonNode n = ConfigBinding.readTree(Files.readString(f), f.toString());
        if (n == null || !n.isObject() || n.has("hosts") || n.has("host-queues") || n.has("addresses")) {
            throw new IllegalArgumentException(f + ": a fabric file for from-agents lists 'switches' and 'links' "
                    + "between them only (the hosts come from their agents)");
        }
        TopologySection.check(n, f.toString(), "");
        return (ObjectNode) n;
    }

    /** Reads the hosts learned before a restart, each under the switch the configuration says now. */
    private void restore() throws IOException {
        TopologyResolver kept;
        try {
            kept = TopologyLoader.load(stateFile);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": the hosts learned from agents in " + stateFile
                    + " cannot be read (" + e.getMessage() + "); fix or remove the file", e);
        }
        Map<String, List<String>> addresses = new HashMap<>();
        kept.addresses().forEach((ip, host) -> addresses.computeIfAbsent(host, h -> new ArrayList<>()).add(ip));
        Map<String, Learned> restored = new LinkedHashMap<>();
        for (Link l : kept.topology().links()) {
            String host = kept.topology().hosts().contains(l.a()) ? l.a()
                    : kept.topology().hosts().contains(l.b()) ? l.b() : null;
            if (host != null) {
                List<String> ips = new ArrayList<>(addresses.getOrDefault(host, List.of()));
                ips.sort(null);
                String sw;
                try {
                    sw = switchFor(host);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(source + ": " + stateFile + " keeps " + e.getMessage(), e);
                }
                restored.put(host, new Learned(sw, l.gbps(), List.copyOf(ips)));
            }
        }
        current = build(tree(restored));
        hosts.putAll(restored);
    }

    /**
     * An agent announced its host: the host is added (or its NIC updated), the topology rebuilt and kept, and the
     * controller told that paths changed.
     *
     * @return what changed, for the log, or null when the host was known as announced
     * @throws IllegalArgumentException one line saying why the host is refused (nothing changed)
     * @throws IOException              when the hosts cannot be kept (nothing changed)
     */
    public String announce(String host, List<AgentNic> nics) throws IOException {
        String change;
        synchronized (this) {
            Learned now = learned(host, nics);
            Learned before = hosts.get(host);
            if (now.equals(before)) {
                return null;
            }
            for (Map.Entry<String, Learned> e : hosts.entrySet()) {
                for (String ip : now.addresses()) {
                    if (!e.getKey().equals(host) && e.getValue().addresses().contains(ip)) {
                        throw new IllegalArgumentException("host " + host + " announced address " + ip
                                + ", which host " + e.getKey() + " owns");
                    }
                }
            }
            Map<String, Learned> next = new LinkedHashMap<>(hosts);
            next.put(host, now);
            ObjectNode tree = tree(next);
            TopologyResolver built = build(tree);
            if (stateFile != null) {
                keep(tree);
            }
            hosts.put(host, now);
            current = built;
            change = before == null ? "host " + host + " joined under " + now.under() + " at " + now.gbps()
                    + " Gbit/s with addresses " + now.addresses()
                    : "host " + host + " changed from " + before.gbps() + " Gbit/s " + before.addresses() + " to "
                    + now.gbps() + " Gbit/s " + now.addresses();
        }
        listeners.forEach(Runnable::run);
        return change;
    }

    private Learned learned(String host, List<AgentNic> nics) {
        if (nics.size() != 1) {
            throw new IllegalArgumentException("host " + host + " announced " + nics.size() + " NICs "
                    + nics.stream().map(AgentNic::getName).toList() + "; a topology from agents takes one NIC per "
                    + "host (start its agent with one --nic)");
        }
        AgentNic nic = nics.get(0);
        TreeSet<String> ips = new TreeSet<>();
        for (String a : nic.getAddressesList()) {
            usable(a).ifPresent(ips::add);
        }
        if (ips.isEmpty()) {
            throw new IllegalArgumentException("host " + host + " announced no usable address on " + nic.getName()
                    + " (loopback and link-local ones do not count): " + nic.getAddressesList());
        }
        double gbps = nic.getLinkRateBps() > 0 ? nic.getLinkRateBps() / 1e9 : defaultGbps;
        if (gbps <= 0) {
            throw new IllegalArgumentException("host " + host + " announced no link rate for " + nic.getName()
                    + " (a virtual NIC?); set topology.from-agents.rate-gbps, or start its agent with --nic "
                    + nic.getName() + "@RATE");
        }
        return new Learned(switchFor(host), gbps, List.copyOf(ips));
    }

    private String switchFor(String host) {
        if (singleSwitch != null) {
            return singleSwitch;
        }
        String s = under.get(host);
        if (s == null) {
            throw new IllegalArgumentException("host " + host + " is under no switch: topology.from-agents.under "
                    + "names " + under.keySet());
        }
        return s;
    }

    /** A literal address a connection may carry, normalised; loopback, link-local and multicast ones are not. */
    private static Optional<String> usable(String ip) {
        if (!ip.matches("[0-9.]+") && ip.indexOf(':') < 0) {
            return Optional.empty();
        }
        try {
            InetAddress a = InetAddress.getByName(ip);
            return a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isMulticastAddress() || a.isAnyLocalAddress()
                    ? Optional.empty() : Optional.of(a.getHostAddress());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** A topology file's tree, read by the topology loader (which checks it). */
    private TopologyResolver build(ObjectNode tree) {
        try {
            return TopologyLoader.fromNode(tree, source, null);
        } catch (IOException e) {
            throw new IllegalStateException("a topology built in memory read no file", e);
        }
    }

    /** The topology file of these hosts under the fabric. */
    private ObjectNode tree(Map<String, Learned> learned) {
        ObjectNode t = JsonNodeFactory.instance.objectNode();
        ArrayNode hostList = t.putArray("hosts");
        t.set("switches", fabric.path("switches").deepCopy());
        ArrayNode links = fabric.path("links").isArray() ? (ArrayNode) fabric.get("links").deepCopy()
                : JsonNodeFactory.instance.arrayNode();
        t.set("links", links);
        learned.forEach((host, l) -> {
            ArrayNode ips = hostList.addObject().put("name", host).putArray("addresses");
            l.addresses().forEach(ips::add);
            links.addObject().put("a", host).put("b", l.under()).put("gbps", l.gbps());
        });
        if (hostQueues > 0) {
            t.put("host-queues", hostQueues);
        }
        return t;
    }

    /** Writes the topology file to the state file ({@link DurableFile#replace}: a crash leaves old or new). */
    private void keep(ObjectNode tree) throws IOException {
        DurableFile.replace(stateFile, ("# hosts learned from their agents (topology: {from-agents: ...}), rewritten as"
                + " they announce; a topology file\n" + YAML.writeValueAsString(tree)).getBytes(StandardCharsets.UTF_8));
    }

    /** The hosts learned so far, sorted. */
    public Set<String> hosts() {
        return current.topology().hosts();
    }

    /** The topology as learned so far. */
    public TopologyResolver current() {
        return current;
    }

    @Override
    public Optional<String> hostOf(String ip) {
        return current.hostOf(ip);
    }

    @Override
    public List<PortId> path(String srcHost, String dstHost) {
        return current.path(srcHost, dstHost);
    }

    /**
     * Any address but a loopback, link-local or multicast one may belong to a host whose agent has not announced yet:
     * a connection to or from it waits for that announcement instead of being refused.
     */
    @Override
    public boolean mayResolveLater(String ip) {
        return usable(ip).isPresent();
    }

    @Override
    public OptionalDouble capacityGbps(PortId port) {
        return current.capacityGbps(port);
    }

    @Override
    public int queues(PortId port) {
        return current.queues(port);
    }

    /** The fewest queues of any port there is or may be: the switches' and the hosts' NICs'. */
    @Override
    public int minQueues() {
        return minQueues;
    }

    @Override
    public void onPathsChanged(Runnable listener) {
        listeners.add(listener);
    }
}
