package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.FallbackPolicy;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Configuration: defaults, mistakes named by key at start-up, the off switch, and the embedded controller. */
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
                new String[] {SabaConf.EMBEDDED_TOPOLOGY, "/no/such/topology.yaml"},
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

    private static String messages(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            b.append(t).append(" | ");
        }
        return b.toString();
    }
}
