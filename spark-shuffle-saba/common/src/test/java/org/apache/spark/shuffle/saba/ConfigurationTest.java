package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.FallbackPolicy;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.state.Mutation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration: defaults, mistakes named by key at start-up, the keys shared with Flink (the table
 * docs/shared-config-keys.tsv, which Flink's SabaSettingsTest reads too), the renamed keys, the off switch, and the
 * embedded controller.
 */
@Timeout(300)
class ConfigurationTest {

    private static SparkConf base() {
        return new SparkConf(false).set("spark.app.name", "My Sort Job");
    }

    @Test
    void defaults() {
        SabaConf c = SabaConf.from(base());
        assertNull(c.controllerAddress(), "no address: embedded controller");
        assertEquals("my-sort-job", c.workload(), "workload falls back to the app name, lower-cased");
        assertEquals(FallbackPolicy.AUTO, c.fallback());
        assertEquals(32, c.dscpMap().tos(1), "CS1 for level 1");
        assertEquals("default", SabaConf.workloadFromAppName("  !! "));
        assertEquals(FallbackPolicy.NEVER, SabaConf.from(base().set(SabaConf.FALLBACK, "never")).fallback());
        assertTrue(c.signals(), "work signals reported by default");
        assertNull(c.signalsPath(), "no record by default");
        assertFalse(SabaConf.from(base().set(SabaConf.SIGNALS, "FALSE")).signals());
    }

    @Test
    void everyMistakeNamesItsKey() {
        List<String[]> bad = List.of(
                new String[] {SabaConf.ADDRESS, "controller-without-port"},
                new String[] {SabaConf.ADDRESS, "host:99999"},
                new String[] {SabaConf.ADDRESS, "host:http"},
                new String[] {SabaConf.FALLBACK, "SOMETIMES"},
                new String[] {SabaConf.DSCP_MAP, "0:0,1:99"},
                new String[] {SabaConf.DSCP_MAP, "0:0,2:8"},
                new String[] {SabaConf.LEVEL_REFRESH, "soon"},
                new String[] {SabaConf.REGISTER_TIMEOUT, "0s"},
                new String[] {SabaConf.EMBEDDED_CONFIG, "/no/such/controller.yaml"},
                new String[] {SabaConf.TLS_TRUST, "/no/such/ca.pem"},
                new String[] {SabaConf.CONTROLLER_TIMEOUT, "soon"},
                new String[] {SabaConf.SIGNALS, "yes"},
                new String[] {SabaConf.SIGNALS_PATH, "/etc/passwd"});
        for (String[] kv : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SabaConf.from(base().set(kv[0], kv[1])), Arrays.toString(kv));
            assertTrue(e.getMessage().startsWith(kv[0]), "message names the key: " + e.getMessage());
        }
    }

    @Test
    void badConfigurationStopsTheSparkContextAtStartUp() {
        SparkConf conf = LocalCluster.sabaOn(new SparkConf().setMaster("local[1]").setAppName("bad")
                .set("spark.ui.enabled", "false")).set(SabaConf.FALLBACK, "SOMETIMES");
        Throwable e = assertThrows(Throwable.class, () -> new JavaSparkContext(conf).close());
        String all = messages(e);
        assertTrue(all.contains(SabaConf.FALLBACK), all);
    }

    @Test
    void alwaysIsPlainSpark() {
        SparkConf conf = LocalCluster.sabaOn(new SparkConf().setMaster("local[2]").setAppName("always")
                .set("spark.ui.enabled", "false")).set(SabaConf.FALLBACK, "ALWAYS");
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            assertEquals(LocalCluster.USER_PLUGINS, jsc.getConf().get(SabaPlugin.PLUGINS, ""), "nothing added");
            assertEquals(97, LocalCluster.job(jsc, 5_000, 97).size());
            assertNull(SabaDriver.current());
        }
    }

    @Test
    void noAddressStartsAnEmbeddedControllerInTheDriver() throws Exception {
        SparkConf conf = LocalCluster.sabaOn(new SparkConf().setMaster("local[2]").setAppName("Embedded Demo")
                .set("spark.ui.enabled", "false"));
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            SabaDriver d = SabaDriver.current();
            assertNotNull(d.embedded());
            String appId = jsc.sc().applicationId();
            await("registration").atMost(Duration.ofSeconds(60))
                    .until(() -> d.embedded().controller().app(appId) != null);
            assertEquals("embedded-demo", d.embedded().controller().app(appId).workload());
            assertEquals(97, LocalCluster.job(jsc, 5_000, 97).size());
        }
        assertNull(SabaDriver.current(), "stopped with the SparkContext");
    }

    /** The keys Spark shares with Flink, in the table's order: "spark." + Flink's key. */
    private static final List<String> SHARED = List.of(SabaConf.ADDRESS, SabaConf.EMBEDDED_CONFIG, SabaConf.TOKEN,
            SabaConf.TLS_TRUST, SabaConf.CONTROLLER_TIMEOUT, SabaConf.WORKLOAD, SabaConf.FALLBACK, SabaConf.DSCP_MAP,
            SabaConf.SIGNALS, SabaConf.SIGNALS_PATH);

    /** The repository's root (tests run in a version module, spark-shuffle-saba/spark-*). */
    static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(dir.resolve("docs/shared-config-keys.tsv"))) {
            dir = dir.getParent();
            assertNotNull(dir, "docs/shared-config-keys.tsv above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }

    /** The shared table's rows: key (Flink's), input ("-": unset), expected ("!": refused). */
    private static List<String[]> sharedTable(Path file, Path dir) throws IOException {
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(repoRoot().resolve("docs/shared-config-keys.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] row = line.replace("{FILE}", file.toString()).replace("{DIR}", dir.toString()).split("\t", -1);
            assertEquals(3, row.length, line);
            rows.add(row);
        }
        return rows;
    }

    /** A parsed shared setting as the table writes it (Flink's test writes its own the same way). */
    private static String shown(SabaConf c, String key) {
        return switch (key) {
            case SabaConf.ADDRESS -> c.controllerAddress();
            case SabaConf.EMBEDDED_CONFIG -> String.valueOf(c.embeddedConfig());
            case SabaConf.TOKEN -> c.token();
            case SabaConf.TLS_TRUST -> String.valueOf(c.tlsTrust());
            case SabaConf.CONTROLLER_TIMEOUT -> c.controllerTimeout().toString();
            case SabaConf.WORKLOAD -> c.workload();
            case SabaConf.FALLBACK -> c.fallback().name();
            case SabaConf.DSCP_MAP -> c.dscpMap().toString();
            case SabaConf.SIGNALS -> String.valueOf(c.signals());
            case SabaConf.SIGNALS_PATH -> String.valueOf(c.signalsPath());
            default -> throw new AssertionError("not a shared key: " + key);
        };
    }

    @Test
    void sharedKeysMeanWhatFlinksDo(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        List<String[]> rows = sharedTable(file, dir);
        LinkedHashSet<String> keys = new LinkedHashSet<>();
        rows.forEach(r -> keys.add("spark." + r[0]));
        assertEquals(SHARED, List.copyOf(keys), "the shared keys are \"spark.\" + Flink's, in the table's order");
        for (String[] r : rows) {
            String key = "spark." + r[0];
            SparkConf conf = r[1].equals("-") ? base() : base().set(key, r[1]);
            String what = key + "='" + r[1] + "'";
            if (r[2].equals("!")) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SabaConf.from(conf),
                        what + " is refused, as in Flink");
                assertTrue(e.getMessage().startsWith(key), what + ": " + e.getMessage());
            } else {
                assertEquals(r[2], String.valueOf(shown(SabaConf.from(conf), key)), what);
            }
        }
    }

    @Test
    void theReadmeListsTheSharedKeysInTheSharedOrder() throws IOException {
        List<String> listed = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\| `(spark\\.saba\\.[^`]+)` \\|")
                .matcher(Files.readString(repoRoot().resolve("spark-shuffle-saba/README.md")));
        while (m.find()) {
            if (SHARED.contains(m.group(1)) && !listed.contains(m.group(1))) {
                listed.add(m.group(1));
            }
        }
        assertEquals(SHARED, listed, "the configuration table, as flink-netty-saba/README.md's");
    }

    @Test
    void renamedKeysAreRefusedWithTheirNewNames() {
        Map<String[], String> renamed = new LinkedHashMap<>();
        renamed.put(new String[] {"spark.saba.token", "s3cret"},
                "spark.saba.token was renamed spark.saba.controller.token");
        renamed.put(new String[] {"spark.saba.tls.trust", "/etc/saba/ca.pem"},
                "spark.saba.tls.trust was renamed spark.saba.controller.tls-trust");
        renamed.put(new String[] {"spark.saba.rpc.deadline", "5s"},
                "spark.saba.rpc.deadline was renamed spark.saba.controller.timeout");
        renamed.put(new String[] {"spark.saba.dscp.map", "0:0,1:8"},
                "spark.saba.dscp.map was renamed spark.saba.dscp-map");
        renamed.put(new String[] {"spark.saba.embedded.topology", " /opt/saba/topo.yaml "},
                "spark.saba.embedded.topology was replaced by spark.saba.controller.embedded-config, a controller "
                        + "YAML: write 'topology: {file: /opt/saba/topo.yaml}' in it");
        renamed.put(new String[] {"spark.saba.embedded.table", "/opt/saba/table.json"},
                "spark.saba.embedded.table was replaced by spark.saba.controller.embedded-config, a controller "
                        + "YAML: write 'table: /opt/saba/table.json' in it");
        assertEquals(SabaConf.RENAMED.keySet(), new LinkedHashSet<>(renamed.keySet().stream().map(k -> k[0]).toList()));
        renamed.forEach((kv, message) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SabaConf.from(base().set(kv[0], kv[1])), kv[0]);
            assertEquals(message, e.getMessage());
            // refused even beside a valid new key: nothing is silently ignored
            assertThrows(IllegalArgumentException.class,
                    () -> SabaConf.from(base().set(kv[0], kv[1]).set(SabaConf.TOKEN, "t")), kv[0]);
        });
        SparkConf conf = LocalCluster.sabaOn(new SparkConf().setMaster("local[1]").setAppName("renamed")
                .set("spark.ui.enabled", "false")).set("spark.saba.token", "s3cret");
        String all = messages(assertThrows(Throwable.class, () -> new JavaSparkContext(conf).close()));
        assertTrue(all.contains("spark.saba.token was renamed spark.saba.controller.token"), all);
    }

    /** A controller YAML in the standalone controller's format, with the repository's sensitivity table. */
    static Path controllerYaml(Path dir, String levelPer) throws IOException {
        Files.createDirectories(dir);
        Files.copy(repoRoot().resolve("examples/sensitivity-table.json"), dir.resolve("table.json"));
        return Files.writeString(dir.resolve("saba-" + levelPer + ".yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, queues: 8}
                table: table.json
                levels: 8
                level-per: %s
                backend: dry-run
                backend-options: {log: false}
                """.formatted(levelPer));
    }

    /** Two applications of one workload registered with the controller the key describes: their levels. */
    private static List<Integer> twoAppsOfOneWorkload(Path yaml) {
        try (EmbeddedController c = EmbeddedControllerLauncher.start(
                SabaConf.from(base().set(SabaConf.EMBEDDED_CONFIG, yaml.toString())))) {
            int a = c.controller().register("", new Mutation.Register("a", "lr", "spark", "u", 0, "")).level();
            int b = c.controller().register("", new Mutation.Register("b", "lr", "spark", "u", 0, "")).level();
            assertEquals(2, c.controller().status(false).apps().size());
            return List.of(a, b);
        }
    }

    @Test
    void embeddedConfigIsTheControllerYaml(@TempDir Path dir) throws IOException {
        List<Integer> perApplication = twoAppsOfOneWorkload(controllerYaml(dir.resolve("app"), "application"));
        List<Integer> perWorkload = twoAppsOfOneWorkload(controllerYaml(dir.resolve("wl"), "workload"));
        assertEquals(List.of(1, 2), perApplication, "level-per: application: a level per application");
        assertEquals(perWorkload.get(0), perWorkload.get(1), "level-per: workload: one level for the workload");
        assertTrue(perWorkload.get(0) >= 1, perWorkload.toString());
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "topology: {shape: single-switch:2}\nlevel-per: app\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EmbeddedControllerLauncher
                .start(SabaConf.from(base().set(SabaConf.EMBEDDED_CONFIG, bad.toString()))));
        assertTrue(e.getMessage().startsWith(SabaConf.EMBEDDED_CONFIG + ": ")
                && e.getMessage().endsWith("level-per must be workload or application, got 'app'"), e.getMessage());
    }

    @Test
    void theDriverStartsTheControllerOfItsEmbeddedConfig(@TempDir Path dir) throws IOException {
        Path yaml = controllerYaml(dir, "application");
        SparkConf conf = LocalCluster.sabaOn(new SparkConf().setMaster("local[2]").setAppName("Embedded Config")
                .set("spark.ui.enabled", "false")).set(SabaConf.EMBEDDED_CONFIG, yaml.toString())
                .set(SabaConf.WORKLOAD, "lr");
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            SabaDriver d = SabaDriver.current();
            String appId = jsc.sc().applicationId();
            await("registration").atMost(Duration.ofSeconds(60))
                    .until(() -> d.embedded().controller().app(appId) != null);
            int sparks = d.embedded().controller().app(appId).level();
            int other = d.embedded().controller().register("",
                    new Mutation.Register("other", "lr", "flink", "u", 0, "")).level();
            assertTrue(sparks >= 1 && other >= 1 && other != sparks,
                    "level-per: application from the YAML: " + sparks + " and " + other);
            assertEquals(97, LocalCluster.job(jsc, 5_000, 97).size());
        }
    }

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t).append(" | ");
        }
        return b.toString();
    }
}
