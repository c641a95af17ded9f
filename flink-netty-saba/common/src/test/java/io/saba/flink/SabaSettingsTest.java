package io.saba.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings: defaults, mistakes named by key, the keys shared with Spark (the table docs/shared-config-keys.tsv,
 * which Spark's ConfigurationTest reads too) and the embedded controller's YAML.
 */
class SabaSettingsTest {
    private static Configuration conf(String... kv) {
        Configuration c = new Configuration();
        for (int i = 0; i < kv.length; i += 2) {
            c.setString(kv[i], kv[i + 1]);
        }
        return c;
    }

    private static void rejected(String key, String value) {
        IllegalConfigurationException e = assertThrows(IllegalConfigurationException.class,
                () -> SabaSettings.from(conf(key, value)));
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }

    @Test
    void defaults() {
        SabaSettings s = SabaSettings.from(new Configuration());
        assertNull(s.controllerAddress(), "embedded controller");
        assertEquals("", s.workload());
        assertEquals(Duration.ofSeconds(2), s.timeout());
        assertEquals(8, s.dscpMap().levels());
        assertEquals(3 * 8 << 2, s.dscpMap().tos(3));
        assertTrue(s.tagConnections());
        assertEquals(FallbackPolicy.AUTO, s.fallback());
        assertTrue(s.signals(), "work signals on, as spark.saba.signals.enabled");
        assertNull(s.signalsPath(), "no record");
    }

    @Test
    void signalsKeys() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("signals");
        SabaSettings s = SabaSettings.from(conf("saba.signals.enabled", "false", "saba.signals.path",
                dir.resolve("not-yet").toString()));
        assertFalse(s.signals());
        assertEquals(dir.resolve("not-yet"), s.signalsPath(), "created with the first line");
        rejected("saba.signals.enabled", "sometimes");
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("file"), "x");
        IllegalConfigurationException e = assertThrows(IllegalConfigurationException.class,
                () -> SabaSettings.from(conf("saba.signals.path", file.toString())));
        assertEquals("saba.signals.path: '" + file + "' is a file, not a directory", e.getMessage());
    }

    @Test
    void aJobsWorkloadIsItsOwnElseTheClustersElseItsName() {
        Configuration own = conf("saba.workload", " lr ");
        assertEquals("lr", SabaSettings.from(conf("saba.workload", "wc")).workloadOf(own, "Nightly Report #7"));
        assertEquals("wc", SabaSettings.from(conf("saba.workload", "wc")).workloadOf(new Configuration(), "x"));
        assertEquals("nightly-report-7", SabaSettings.from(new Configuration()).workloadOf(null, "Nightly Report #7"));
        assertEquals("default", SabaSettings.from(new Configuration()).workloadOf(null, "#"));
    }

    @Test
    void fallbackPoliciesAndTheDeprecatedFailFast() {
        assertEquals(FallbackPolicy.ALWAYS, SabaSettings.from(conf("saba.fallback", "always")).fallback());
        assertEquals(FallbackPolicy.NEVER, SabaSettings.from(conf("saba.fallback", " NEVER ")).fallback());
        assertEquals(FallbackPolicy.NEVER, SabaSettings.from(conf("saba.fail-fast", "true")).fallback());
        assertEquals(FallbackPolicy.AUTO, SabaSettings.from(conf("saba.fail-fast", "false")).fallback());
        assertEquals(FallbackPolicy.ALWAYS,
                SabaSettings.from(conf("saba.fail-fast", "true", "saba.fallback", "ALWAYS")).fallback(),
                "the new key wins over the deprecated one");
        IllegalConfigurationException e = assertThrows(IllegalConfigurationException.class,
                () -> SabaSettings.from(conf("saba.fallback", "SOMETIMES")));
        assertEquals("saba.fallback: unknown fallback policy 'SOMETIMES' (expected ALWAYS, AUTO or NEVER)",
                e.getMessage(), "the message Spark gives for spark.saba.fallback, with Flink's key");
    }

    @Test
    void mistakesNameTheirKey() {
        rejected("saba.controller.address", "controller");
        rejected("saba.controller.address", "controller:http");
        rejected("saba.controller.address", "controller:70000");
        rejected("saba.controller.timeout", "0 s");
        rejected("saba.controller.timeout", "soon");
        rejected("saba.controller.register-wait", "-1 s");
        rejected("saba.fail-fast", "maybe");
        rejected("saba.fallback", "sometimes");
        rejected("saba.dscp-map", "0:0,1:64");
        rejected("saba.dscp-map", "1:8");
        rejected("saba.controller.embedded-config", "/no/such/file.yaml");
        rejected("saba.controller.tls-trust", "/no/such/ca.pem");
    }

    @Test
    void customDscpMap() {
        SabaSettings s = SabaSettings.from(conf("saba.dscp-map", "0:0,1:10,2:46"));
        assertEquals(3, s.dscpMap().levels());
        assertEquals(46 << 2, s.dscpMap().tos(2));
    }

    /** The keys Flink shares with Spark, in the table's order (Spark's are "spark." + these). */
    private static final List<String> SHARED = List.of(SabaOptions.CONTROLLER_ADDRESS.key(),
            SabaOptions.EMBEDDED_CONFIG.key(), SabaOptions.TOKEN.key(), SabaOptions.TLS_TRUST.key(),
            SabaOptions.CONTROLLER_TIMEOUT.key(), SabaOptions.WORKLOAD.key(), SabaOptions.FALLBACK.key(),
            SabaOptions.DSCP_MAP.key(), SabaOptions.SIGNALS_ENABLED.key(), SabaOptions.SIGNALS_PATH.key());

    /** The repository's root (tests run in a version module, flink-netty-saba/flink-*). */
    private static Path repoRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(dir.resolve("docs/shared-config-keys.tsv"))) {
            dir = dir.getParent();
            if (dir == null) {
                throw new AssertionError("no docs/shared-config-keys.tsv above " + Path.of("").toAbsolutePath());
            }
        }
        return dir;
    }

    /** A parsed shared setting as the table writes it (Spark's test writes its own the same way). */
    private static String shown(SabaSettings s, String key) {
        return switch (key) {
            case "saba.controller.address" -> s.controllerAddress();
            case "saba.controller.embedded-config" -> String.valueOf(s.embeddedConfig());
            case "saba.controller.token" -> s.token();
            case "saba.controller.tls-trust" -> String.valueOf(s.tlsTrust());
            case "saba.controller.timeout" -> s.timeout().toString();
            case "saba.workload" -> s.workloadOf(null, "My Sort Job");
            case "saba.fallback" -> s.fallback().name();
            case "saba.dscp-map" -> s.dscpMap().toString();
            case "saba.signals.enabled" -> String.valueOf(s.signals());
            case "saba.signals.path" -> String.valueOf(s.signalsPath());
            default -> throw new AssertionError("not a shared key: " + key);
        };
    }

    @Test
    void sharedKeysMeanWhatSparksDo(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(repoRoot().resolve("docs/shared-config-keys.tsv"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] row = line.replace("{FILE}", file.toString()).replace("{DIR}", dir.toString())
                        .split("\t", -1);
                assertEquals(3, row.length, line);
                rows.add(row);
            }
        }
        LinkedHashSet<String> keys = new LinkedHashSet<>();
        rows.forEach(r -> keys.add(r[0]));
        assertEquals(SHARED, List.copyOf(keys), "the shared keys, in the table's order");
        for (String[] r : rows) {
            Configuration c = r[1].equals("-") ? new Configuration() : conf(r[0], r[1]);
            String what = r[0] + "='" + r[1] + "'";
            if (r[2].equals("!")) {
                IllegalConfigurationException e = assertThrows(IllegalConfigurationException.class,
                        () -> SabaSettings.from(c), what + " is refused, as in Spark");
                assertTrue(e.getMessage().startsWith(r[0]), what + ": " + e.getMessage());
            } else {
                assertEquals(r[2], String.valueOf(shown(SabaSettings.from(c), r[0])), what);
            }
        }
    }

    @Test
    void theReadmeListsTheSharedKeysInTheSharedOrder() throws IOException {
        List<String> listed = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^\\| `(saba\\.[^`]+)` \\|")
                .matcher(Files.readString(repoRoot().resolve("flink-netty-saba/README.md")));
        while (m.find()) {
            if (SHARED.contains(m.group(1)) && !listed.contains(m.group(1))) {
                listed.add(m.group(1));
            }
        }
        assertEquals(SHARED, listed, "the configuration table, as spark-shuffle-saba/README.md's");
    }

    @Test
    void theClientGetsTokenTlsTrustDeadlineAndDscpMap(@TempDir Path dir) throws IOException {
        Path pem = Files.writeString(dir.resolve("ca.pem"), "x");
        SabaSettings s = SabaSettings.from(conf("saba.controller.token", "t", "saba.controller.tls-trust",
                pem.toString(), "saba.controller.timeout", "750 ms", "saba.dscp-map", "0:0,1:10"));
        io.saba.client.ClientConfig c = s.clientConfig("ctl:7070");
        assertEquals("t", c.token());
        assertEquals(pem, c.trustCertPem());
        assertEquals(Duration.ofMillis(750), c.deadline());
        assertEquals(10 << 2, c.dscpMap().tos(1));
        assertNull(SabaSettings.from(new Configuration()).clientConfig("ctl:7070").trustCertPem(), "plaintext");
    }

    /** A controller YAML in the standalone controller's format, with the repository's sensitivity table. */
    private static Path controllerYaml(Path dir, String levelPer) throws IOException {
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

    /** Two jobs of one workload registered with the controller the key describes: their levels. */
    private static List<Integer> twoJobsOfOneWorkload(Path yaml) {
        try (ControllerLink link = ControllerLink.open(SabaSettings.from(
                conf("saba.controller.embedded-config", yaml.toString())))) {
            EmbeddedController c = link.embedded();
            int a = c.controller().register("", new Mutation.Register("a", "lr", "flink", "u", 0, "")).level();
            int b = c.controller().register("", new Mutation.Register("b", "lr", "flink", "u", 0, "")).level();
            assertEquals(2, c.controller().status(false).apps().size());
            return List.of(a, b);
        }
    }

    @Test
    void embeddedConfigIsTheControllerYaml(@TempDir Path dir) throws IOException {
        List<Integer> perApplication = twoJobsOfOneWorkload(controllerYaml(dir.resolve("app"), "application"));
        List<Integer> perWorkload = twoJobsOfOneWorkload(controllerYaml(dir.resolve("wl"), "workload"));
        assertEquals(List.of(1, 2), perApplication, "level-per: application: a level per job");
        assertEquals(perWorkload.get(0), perWorkload.get(1), "level-per: workload: one level for the workload");
        assertTrue(perWorkload.get(0) >= 1, perWorkload.toString());
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "topology: {shape: single-switch:2}\nlevel-per: app\n");
        IllegalConfigurationException e = assertThrows(IllegalConfigurationException.class,
                () -> ControllerLink.open(SabaSettings.from(conf("saba.controller.embedded-config", bad.toString()))));
        assertTrue(e.getMessage().startsWith("saba.controller.embedded-config: ")
                && e.getMessage().endsWith("level-per must be workload or application, got 'app'"), e.getMessage());
    }
}
