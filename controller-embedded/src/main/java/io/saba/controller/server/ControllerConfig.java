package io.saba.controller.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.controller.ConfigBinding;
import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackends;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.core.alloc.LevelMode;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.AgentTopology;
import io.saba.controller.topology.PathResolverProvider;
import io.saba.controller.topology.TopologyLoader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The standalone controller's configuration file (YAML), parsed in this one place. Keys (relative paths are
 * relative to the file):
 *
 * <pre>
 * listen: 0.0.0.0:7070              # gRPC address (default 127.0.0.1:7070)
 * http: 7071                       # status page and /metrics on 127.0.0.1:7071; HOST:PORT for another address
 *                                   #   (with tokens, pages need a tenant's bearer token); omit to disable
 * topology: {shape: single-switch:8, gbps: 10, queues: 8, address-base: 10.0.0.1}   # or {file: topo.yaml}
 *                                   # or {discover: infiniband, ...} (a live subnet, module fabric-infiniband)
 *                                   # or {from-agents: {switch: tor1, rate-gbps: 10}, host-queues: 8}: hosts as
 *                                   #   their agents announce them (backend: agents; kept in journal-dir)
 *                                   # or this-machine: one switch whose only host is this machine, by all its
 *                                   #   addresses (an embedded controller tried on one machine)
 * table: sensitivity-table.json     # omit: every workload gets the default model
 * allocation: corun                 # eq2 (default): Eq. 2 on static curves; corun: the co-run predictor where the
 *                                   #   table has traffic records, applied only when it beats the equal split
 * corun-margin: 0.03                # the predicted gain a co-run plan needs over the equal split / current plan
 * sensitivity: blended              # table (default): the table's models; online: each workload's estimate from
 *                                   #   its units' network wait; blended: the table (or default) updated by it
 * c-saba: 0.9                       # share of each link Saba's queues get
 * levels: 8                         # priority levels incl. default 0 (8 Ethernet, 16 InfiniBand)
 * level-per: workload               # workload (default): a workload's applications share its level; application:
 *                                   #   each application a level of its own while levels are free, then shared
 *                                   #   with its workload's (applications of one workload share a queue only on
 *                                   #   ports without room)
 * backend: dry-run                  # fabric backend name
 * backend-options: {log: true}      # backend-specific
 * lease-timeout-seconds: 30
 * journal-dir: /var/lib/saba        # omit: state in memory only
 * journal-fsync: interval           # always | interval | never
 * journal-fsync-millis: 20
 * tls: {cert: server.pem, key: server-key.pem}
 * tokens: {team-a: "secret-a", ops: "secret-ops"}   # tenant → bearer token; omit: no authentication
 * admin-tenants: [ops]              # may reload the table
 * agent-tokens: {node1: "secret-1"} # host → its agent's bearer token (backend: agents); an agent may claim only
 *                                   #   its own host; omit: agents connect only while 'tokens' is omitted too
 * grpc-threads: 4
 * recompute-interval-millis: 5      # least time between recomputation rounds (coalescing window)
 * group: zk://zk1:2181,zk2:2181/saba     # join a controller group (needs the saba-controller-zk module);
 *                                   #   'cluster', its former name, is read too
 * </pre>
 */
public final class ControllerConfig {
    /** The topology value that means this machine alone, as an embedded controller assumes without a file. */
    static final String THIS_MACHINE = "this-machine";

    private ControllerConfig() {
    }

    /** Reads the file and returns a configured, not yet started controller. */
    public static EmbeddedController load(Path file) throws IOException {
        return builder(file).build();
    }

    /** Reads the file into a builder (the CLI adds a group membership when {@code group} is set). */
    public static EmbeddedController.Builder builder(Path file) throws IOException {
        return builder(read(file), file.toAbsolutePath().getParent(), file.toString());
    }

    /** The file as a mutable tree (what the command line adjusts with flags such as {@code --fabric}). */
    public static com.fasterxml.jackson.databind.node.ObjectNode read(Path file) throws IOException {
        JsonNode root = ConfigBinding.readTree(Files.readString(file), file.toString());
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException(file + ": the configuration is a YAML mapping");
        }
        return (com.fasterxml.jackson.databind.node.ObjectNode) root;
    }

    /** Builds a controller from an already parsed configuration (see {@link #builder(JsonNode, Path, String)}). */
    public static EmbeddedController load(JsonNode root, Path base, String src) throws IOException {
        return builder(root, base, src).build();
    }

    /**
     * A builder from an already parsed configuration.
     *
     * @param base where relative paths point
     * @param src  names the configuration in error messages
     */
    public static EmbeddedController.Builder builder(JsonNode root, Path base, String src) throws IOException {
        ConfigBinding.check(root, ConfigShape.class, src, "");
        if (root.path("topology").isObject() && !root.get("topology").hasNonNull("discover")) {
            TopologyLoader.check(root.get("topology"), src, "topology");
        }
        EmbeddedController.Builder b = EmbeddedController.builder();
        b.listen(address(root.path("listen").asText("127.0.0.1:7070"), src + ": listen"));
        if (root.hasNonNull("http")) {
            b.http(httpAddress(root.get("http").asText(), src + ": http"));
        }
        if (!root.hasNonNull("topology")) {
            throw new IllegalArgumentException(src + ": 'topology' is required (a shape or a file)");
        }
        JsonNode topo = root.get("topology");
        if (topo.isTextual()) {
            if (!THIS_MACHINE.equals(topo.asText())) {
                throw new IllegalArgumentException(src + ": topology '" + topo.asText() + "' is not " + THIS_MACHINE
                        + "; give a shape, a file, discover or from-agents");
            }
            b.topology(EmbeddedController.thisMachine());
        } else if (topo.has("from-agents")) {
            if (!"agents".equals(root.path("backend").asText())) {
                throw new IllegalArgumentException(src + ": topology.from-agents learns the hosts from their agents, "
                        + "so it needs backend: agents");
            }
            if (root.hasNonNull("group") || root.hasNonNull("cluster")) {
                throw new IllegalArgumentException(src + ": topology.from-agents is not supported in a controller "
                        + "group; give the group a topology file");
            }
            b.paths(AgentTopology.fromNode(topo, src + ": topology", base, journalDir(root, base)));
        } else if (topo.hasNonNull("discover")) {
            b.paths(PathResolverProvider.named(topo.get("discover").asText()).create(topo, src + ": topology", base));
        } else {
            b.topology(TopologyLoader.fromNode(topo, src + ": topology", base));
        }
        if (root.hasNonNull("table")) {
            Path t = resolve(base, root.get("table").asText());
            b.table(ModelCatalog.parse(Files.readString(t), t.toString())).tableFile(t);
        }
        b.cSaba(root.path("c-saba").asDouble(0.9));
        b.allocation(AllocationPipeline.Allocation.parse(root.path("allocation").asText("eq2"), src + ": allocation"));
        double margin = root.path("corun-margin").asDouble(AllocationPipeline.DEFAULT_CORUN_MARGIN);
        if (!(margin >= 0 && margin < 1)) {
            throw new IllegalArgumentException(src + ": corun-margin must be in [0, 1), got " + margin);
        }
        b.corunMargin(margin);
        b.sensitivity(SensitivityMode.parse(root.path("sensitivity").asText("table"), src + ": sensitivity"));
        b.levels(root.path("levels").asInt(8));
        b.levelPer(LevelMode.parse(root.path("level-per").asText("workload"), src + ": level-per"));
        b.backend(backend(root), true);
        b.leaseTimeout(Duration.ofMillis((long) (root.path("lease-timeout-seconds").asDouble(30) * 1000)));
        if (root.hasNonNull("journal-dir")) {
            String policy = root.path("journal-fsync").asText("interval").toUpperCase(Locale.ROOT);
            FsyncPolicy p;
            try {
                p = FsyncPolicy.valueOf(policy);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(src + ": journal-fsync must be always, interval or never", e);
            }
            b.journal(journalDir(root, base), p, root.path("journal-fsync-millis").asLong(20));
        }
        if (root.hasNonNull("tls")) {
            JsonNode tls = root.get("tls");
            if (!tls.hasNonNull("cert") || !tls.hasNonNull("key")) {
                throw new IllegalArgumentException(src + ": tls needs both 'cert' and 'key' (PEM files)");
            }
            b.tls(resolve(base, tls.get("cert").asText()), resolve(base, tls.get("key").asText()));
        }
        Map<String, String> tokens = new LinkedHashMap<>();
        root.path("tokens").fields().forEachRemaining(e -> tokens.put(e.getKey(), e.getValue().asText()));
        if (new HashSet<>(tokens.values()).size() != tokens.size()) {
            throw new IllegalArgumentException(src + ": two tenants share a token");
        }
        b.tokens(tokens);
        Map<String, String> agentTokens = new LinkedHashMap<>();
        root.path("agent-tokens").fields().forEachRemaining(e -> agentTokens.put(e.getKey(), e.getValue().asText()));
        Set<String> allTokens = new HashSet<>(tokens.values());
        for (String t : agentTokens.values()) {
            if (!allTokens.add(t)) {
                throw new IllegalArgumentException(src + ": an agent token is shared with another agent or a tenant");
            }
        }
        b.agentTokens(agentTokens);
        Set<String> admins = new HashSet<>();
        root.path("admin-tenants").forEach(n -> admins.add(n.asText()));
        b.adminTenants(admins);
        if (root.hasNonNull("grpc-threads")) {
            b.grpcThreads(root.get("grpc-threads").asInt());
        }
        b.recomputeInterval(Duration.ofMillis(root.path("recompute-interval-millis").asLong(5)));
        if (root.hasNonNull("group") && root.hasNonNull("cluster")) {
            throw new IllegalArgumentException(src + ": give 'group' or its former name 'cluster', not both");
        }
        for (String key : new String[] {"group", "cluster"}) {
            if (root.hasNonNull(key)) {
                b.groupUri(root.get(key).asText());
            }
        }
        return b;
    }

    /** The configured fabric backend ({@code backend}, {@code backend-options}), created. */
    public static FabricBackend backend(JsonNode root) {
        Map<String, Object> options = new LinkedHashMap<>();
        root.path("backend-options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        return FabricBackends.create(root.path("backend").asText("dry-run"), options);
    }

    /** The configured {@code journal-dir}, resolved, or null (memory only). */
    public static Path journalDir(JsonNode root, Path base) {
        return root.hasNonNull("journal-dir") ? resolve(base, root.get("journal-dir").asText()) : null;
    }

    private static Path resolve(Path base, String p) {
        Path path = Path.of(p);
        return path.isAbsolute() ? path : base.resolve(path);
    }

    /**
     * The status pages' address: "host:port", or a port alone (or ":port") for loopback. Loopback by default
     * because without tokens the pages are open to whoever reaches them.
     */
    public static InetSocketAddress httpAddress(String s, String what) {
        String t = s.trim();
        if (t.startsWith(":")) {
            t = t.substring(1);
        }
        if (t.chars().allMatch(Character::isDigit) && !t.isEmpty()) {
            return address("127.0.0.1:" + t, what);
        }
        return address(s, what);
    }

    /** "host:port" or "[v6]:port". */
    public static InetSocketAddress address(String s, String what) {
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(what + ": '" + s + "' is not host:port");
        }
        String host = s.substring(0, colon).replace("[", "").replace("]", "");
        try {
            return new InetSocketAddress(host, Integer.parseInt(s.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": port of '" + s + "' is not a number", e);
        }
    }
}
