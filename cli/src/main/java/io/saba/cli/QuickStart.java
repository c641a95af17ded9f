package io.saba.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.table.ModelCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code saba controller} runs without {@code --config}: {@code examples/quick-start.yaml} (one switch, four
 * hosts, the example table, the dry-run fabric, the status page). From a checkout ({@code bin/saba} sets
 * {@code saba.home}) it reads the checkout's files, exactly as {@code --config examples/quick-start.yaml} would;
 * elsewhere the copies the build put in the jar, so a first try never depends on the working directory.
 */
final class QuickStart {
    static final String CONFIG = "examples/quick-start.yaml";
    static final String TABLE = "examples/sensitivity-table.json";
    private static final String BUNDLED = "/io/saba/cli/quickstart/";

    /** The configuration tree, to be adjusted by the command's flags. */
    final ObjectNode root;
    /** Where relative paths in it point; null when it came from the jar. */
    private final Path base;
    /** Names the configuration in messages. */
    final String source;

    private QuickStart(ObjectNode root, Path base, String source) {
        this.root = root;
        this.base = base;
        this.source = source;
    }

    /** The checkout's quick-start file when {@code saba.home} has one, else the jar's copy. */
    static QuickStart load() throws IOException {
        String home = System.getProperty("saba.home");
        if (home != null && Files.isRegularFile(Path.of(home, CONFIG))) {
            Path file = Path.of(home, CONFIG).toAbsolutePath().normalize();
            return new QuickStart(ControllerConfig.read(file), file.getParent(), file.toString());
        }
        ObjectNode root = (ObjectNode) new ObjectMapper(new YAMLFactory()).readTree(bundled("quick-start.yaml"));
        return new QuickStart(root, null, CONFIG + " (bundled in saba-cli.jar)");
    }

    /** The controller's builder; from the jar, the table is the jar's copy too (there is no file to resolve). */
    EmbeddedController.Builder builder() throws IOException {
        if (base != null) {
            return ControllerConfig.builder(root, base, source);
        }
        ObjectNode withoutTable = root.deepCopy();
        boolean table = withoutTable.remove("table") != null;
        EmbeddedController.Builder b = ControllerConfig.builder(withoutTable, Path.of("").toAbsolutePath(), source);
        if (table) {
            b.table(ModelCatalog.parse(bundled("sensitivity-table.json"), TABLE + " (bundled in saba-cli.jar)"));
        }
        return b;
    }

    /** The table's name as printed: the checkout's file, or the jar's copy of it. */
    private String tableName() {
        if (!root.hasNonNull("table")) {
            return "none: every workload gets the default model";
        }
        return (base != null ? base.resolve(root.get("table").asText()).normalize().toString()
                : TABLE + " (bundled in saba-cli.jar)") + "; the example's curves are estimated from the paper's"
                + " figures, not measured";
    }

    /** Where everything is, and how to go real: what an operator needs after a first {@code saba controller}. */
    List<String> banner(EmbeddedController c, InetSocketAddress grpc, TopologyResolver topology) {
        List<String> lines = new ArrayList<>();
        lines.add("saba controller: quick start (no --config), from " + source);
        lines.add("  gRPC         " + hostPort(grpc) + "   (clients: spark.saba.controller.address,"
                + " saba.controller.address)");
        InetSocketAddress http = c.httpAddress();
        if (http != null) {
            String url = "http://" + hostPort(http);
            lines.add("  status page  " + url + "/status   (JSON: " + url + "/status.json)");
            lines.add("  metrics      " + url + "/metrics");
        }
        lines.add("  table        " + tableName());
        if (topology != null) {
            lines.add("  topology     " + describe(topology));
        }
        lines.add("  fabric       " + root.path("backend").asText("dry-run")
                + ": allocations are computed and logged, no switch is programmed");
        lines.add("To go real: saba controller --config FILE, a copy of " + CONFIG + " with your topology and"
                + " backend (every key: controller-embedded/README.md, section Configuration)");
        return lines;
    }

    /** "switch s0; hosts h1 10.0.0.1, h2 10.0.0.2, …" (at most eight hosts listed). */
    private static String describe(TopologyResolver t) {
        Map<String, String> ipOfHost = new TreeMap<>();
        t.addresses().forEach((ip, host) -> ipOfHost.merge(host, ip, (a, b) -> a + "/" + b));
        List<String> hosts = new ArrayList<>();
        for (String h : t.topology().hosts()) {
            if (hosts.size() == 8) {
                hosts.add("… (" + t.topology().hosts().size() + " hosts)");
                break;
            }
            hosts.add(h + (ipOfHost.containsKey(h) ? " " + ipOfHost.get(h) : ""));
        }
        return (t.topology().switches().size() == 1 ? "switch " : "switches ")
                + String.join(", ", t.topology().switches()) + "; hosts " + String.join(", ", hosts)
                + " (report connections between these addresses)";
    }

    private static String hostPort(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    private static String bundled(String name) {
        try (InputStream in = QuickStart.class.getResourceAsStream(BUNDLED + name)) {
            if (in == null) {
                throw new IllegalStateException("saba-cli.jar lacks " + BUNDLED + name + "; rebuild with mvn package");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
