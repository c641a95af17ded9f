package org.apache.spark.shuffle.saba;

import io.saba.client.ClientConfig;
import io.saba.wire.DscpMap;
import io.saba.client.FallbackPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.SparkConf;

/**
 * Every {@code spark.saba.*} key, parsed and checked once. A bad value throws IllegalArgumentException whose message
 * starts with the key, so a misconfigured application fails at start-up (the shuffle manager is built while the
 * SparkContext is) and says which setting to fix. A key this plugin once read under another name (see
 * {@link #RENAMED}) is refused the same way, with its new name, so no setting is silently ignored.
 *
 * <p>The keys both engines have are Flink's ({@code saba.*}, see flink-netty-saba's {@code SabaOptions}) with
 * {@code spark.} in front, with the same meaning, default and value syntax (durations in each engine's syntax).
 *
 * @param controllerAddress "host:port" of a running controller, or null to start one inside the driver
 * @param embeddedConfig    embedded controller: a controller YAML (the standalone controller's format), or null for
 *                          the default (loopback, dry-run, this machine as one host)
 * @param token             bearer token, or null
 * @param tlsTrust          PEM file to trust for TLS to the controller, or null for plaintext
 * @param controllerTimeout deadline of each controller call
 * @param workload          sensitivity-table key
 * @param fallback          see {@link FallbackPolicy}
 * @param dscpMap           level → DSCP
 * @param signals           whether the driver reports each stage's work signals to the controller
 * @param signalsPath       a directory for each application's JSON-lines record of its work signals, or null
 * @param registerTimeout   NEVER policy: how long the first shuffle waits for the controller's answer (Spark only)
 * @param levelRefresh      the shortest interval between two of an executor's questions to the driver for the
 *                          application's current level (they ask after each driver heartbeat, when it can change)
 */
public record SabaConf(String controllerAddress, Path embeddedConfig, String token, Path tlsTrust,
                       Duration controllerTimeout, String workload, FallbackPolicy fallback, DscpMap dscpMap,
                       boolean signals, Path signalsPath, Duration registerTimeout, Duration levelRefresh) {
    // shared with Flink: "spark." + its key, in the order both READMEs list them
    public static final String ADDRESS = "spark.saba.controller.address";
    public static final String EMBEDDED_CONFIG = "spark.saba.controller.embedded-config";
    public static final String TOKEN = "spark.saba.controller.token";
    public static final String TLS_TRUST = "spark.saba.controller.tls-trust";
    public static final String CONTROLLER_TIMEOUT = "spark.saba.controller.timeout";
    public static final String WORKLOAD = "spark.saba.workload";
    public static final String FALLBACK = "spark.saba.fallback";
    public static final String DSCP_MAP = "spark.saba.dscp-map";
    public static final String SIGNALS = "spark.saba.signals.enabled";
    public static final String SIGNALS_PATH = "spark.saba.signals.path";
    // Spark only
    public static final String REGISTER_TIMEOUT = "spark.saba.register.timeout";
    public static final String LEVEL_REFRESH = "spark.saba.level.refresh";

    /** Keys read before the Spark and Flink keys were aligned, each with what to write instead. */
    static final Map<String, String> RENAMED = renamed();

    private static Map<String, String> renamed() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("spark.saba.token", "was renamed " + TOKEN);
        m.put("spark.saba.tls.trust", "was renamed " + TLS_TRUST);
        m.put("spark.saba.rpc.deadline", "was renamed " + CONTROLLER_TIMEOUT);
        m.put("spark.saba.dscp.map", "was renamed " + DSCP_MAP);
        m.put("spark.saba.embedded.topology", "was replaced by " + EMBEDDED_CONFIG
                + ", a controller YAML: write 'topology: {file: <this file>}' in it");
        m.put("spark.saba.embedded.table", "was replaced by " + EMBEDDED_CONFIG
                + ", a controller YAML: write 'table: <this file>' in it");
        return Collections.unmodifiableMap(m);
    }

    /** Reads and checks the configuration; throws IllegalArgumentException naming the offending key. */
    public static SabaConf from(SparkConf conf) {
        RENAMED.forEach((old, instead) -> {
            if (conf.contains(old)) {
                throw new IllegalArgumentException(old + " " + instead.replace("<this file>", conf.get(old).trim()));
            }
        });
        String address = trimmed(conf, ADDRESS);
        if (address != null) {
            checkAddress(address);
        }
        String embedded = trimmed(conf, EMBEDDED_CONFIG);
        Path embeddedConfig = embedded == null ? null : Path.of(embedded);
        // read only when the driver starts the controller, as Flink's JobManager does
        if (embeddedConfig != null && address == null && !Files.isReadable(embeddedConfig)) {
            throw new IllegalArgumentException(EMBEDDED_CONFIG + ": cannot read file '" + embedded + "'");
        }
        String workload = trimmed(conf, WORKLOAD);
        if (workload == null) {
            workload = workloadFromAppName(conf.get("spark.app.name", ""));
        }
        FallbackPolicy fallback = FallbackPolicy.parse(conf.get(FALLBACK, "AUTO"), FALLBACK);
        String map = trimmed(conf, DSCP_MAP);
        DscpMap dscp = map == null ? DscpMap.classSelectors() : DscpMap.parse(map, DSCP_MAP);
        return new SabaConf(address, embeddedConfig, trimmed(conf, TOKEN), existingFile(conf, TLS_TRUST),
                duration(conf, CONTROLLER_TIMEOUT, "2s"), workload, fallback, dscp, bool(conf, SIGNALS, true),
                directory(conf, SIGNALS_PATH), duration(conf, REGISTER_TIMEOUT, "10s"),
                duration(conf, LEVEL_REFRESH, "1s"));
    }

    /**
     * The fallback when {@code spark.saba.workload} is unset: the application name lower-cased, runs of other
     * characters than letters and digits turned into '-', or "default" when nothing is left. Unknown workloads get
     * the controller's default model, so this never fails; set the key to a profiled workload to benefit.
     */
    static String workloadFromAppName(String appName) {
        String w = appName.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return w.isEmpty() ? "default" : w;
    }

    ClientConfig clientConfig(String target) {
        return ClientConfig.defaults(target).withDeadline(controllerTimeout).withToken(token).withTls(tlsTrust)
                .withDscpMap(dscpMap);
    }

    private static String trimmed(SparkConf conf, String key) {
        if (!conf.contains(key)) {
            return null;
        }
        String v = conf.get(key).trim();
        return v.isEmpty() ? null : v;
    }

    private static void checkAddress(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? "" : address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (colon < 0 || host.isEmpty() || host.contains(" ")) {
            throw new IllegalArgumentException(ADDRESS + ": '" + address + "' is not host:port");
        }
        String port = address.substring(colon + 1);
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ADDRESS + ": port '" + port + "' of '" + address
                    + "' is not a number", e);
        }
        if (p < 1 || p > 65535) {
            throw new IllegalArgumentException(ADDRESS + ": port " + p + " of '" + address + "' outside 1..65535");
        }
    }

    private static Duration duration(SparkConf conf, String key, String dflt) {
        String v = conf.get(key, dflt).trim();
        long ms;
        try {
            // Spark's own time syntax ("500ms", "2s", "1min"); a bare number means milliseconds here
            ms = org.apache.spark.network.util.JavaUtils.timeStringAsMs(v);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + ": '" + v + "' is not a duration (e.g. 500ms, 2s, 1min)", e);
        }
        if (ms <= 0) {
            throw new IllegalArgumentException(key + ": must be positive, got '" + v + "'");
        }
        return Duration.ofMillis(ms);
    }

    private static boolean bool(SparkConf conf, String key, boolean dflt) {
        String v = conf.get(key, Boolean.toString(dflt)).trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + ": '" + v + "' is not true or false");
        };
    }

    /** A directory that exists or can be created later (the record creates it); not a file. */
    private static Path directory(SparkConf conf, String key) {
        String v = trimmed(conf, key);
        if (v == null) {
            return null;
        }
        Path p = Path.of(v);
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw new IllegalArgumentException(key + ": '" + v + "' is a file, not a directory");
        }
        return p;
    }

    private static Path existingFile(SparkConf conf, String key) {
        String v = trimmed(conf, key);
        if (v == null) {
            return null;
        }
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException(key + ": no such file '" + v + "'");
        }
        return p;
    }
}
