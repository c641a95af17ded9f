package io.saba.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.FallbackPolicy;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.junit.jupiter.api.Test;

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
    }

    @Test
    void customDscpMap() {
        SabaSettings s = SabaSettings.from(conf("saba.dscp-map", "0:0,1:10,2:46"));
        assertEquals(3, s.dscpMap().levels());
        assertEquals(46 << 2, s.dscpMap().tos(2));
    }
}
