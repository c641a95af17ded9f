package org.apache.spark.shuffle.saba;

import io.saba.client.ClientConfig;
import io.saba.wire.DscpMap;
import io.saba.client.FallbackPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.apache.spark.SparkConf;

/**
 * Every {@code spark.saba.*} key, parsed and checked once. A bad value throws IllegalArgumentException whose message
 * starts with the key, so a misconfigured application fails at start-up (the shuffle manager is built while the
 * SparkContext is) and says which setting to fix.
 *
 * @param controllerAddress "host:port" of a running controller, or null to start one inside the driver
 * @param workload          sensitivity-table key
 * @param fallback          see {@link FallbackPolicy}
 * @param dscpMap           level → DSCP
 * @param token             bearer token, or null
 * @param tlsTrust          PEM file to trust for TLS to the controller, or null for plaintext
 * @param registerTimeout   NEVER policy: how long the first shuffle waits for the controller's answer
 * @param rpcDeadline       deadline of each controller call
 * @param levelRefresh      the shortest interval between two of an executor's questions to the driver for the
 *                          application's current level (they ask after each driver heartbeat, when it can change)
 * @param embeddedTopology  embedded controller: topology YAML, or null for "this machine is one host"
 * @param embeddedTable     embedded controller: sensitivity table JSON, or null for none (every workload default)
 * @param signals           whether the driver reports each stage's work signals to the controller
 * @param signalsPath       a directory for each application's JSON-lines record of its work signals, or null
 */
public record SabaConf(String controllerAddress, String workload, FallbackPolicy fallback, DscpMap dscpMap,
                       String token, Path tlsTrust, Duration registerTimeout, Duration rpcDeadline,
                       Duration levelRefresh, Path embeddedTopology, Path embeddedTable, boolean signals,
                       Path signalsPath) {
    public static final String ADDRESS = "spark.saba.controller.address";
    public static final String WORKLOAD = "spark.saba.workload";
    public static final String FALLBACK = "spark.saba.fallback";
    public static final String DSCP_MAP = "spark.saba.dscp.map";
    public static final String TOKEN = "spark.saba.token";
    public static final String TLS_TRUST = "spark.saba.tls.trust";
    public static final String REGISTER_TIMEOUT = "spark.saba.register.timeout";
    public static final String RPC_DEADLINE = "spark.saba.rpc.deadline";
    public static final String LEVEL_REFRESH = "spark.saba.level.refresh";
    public static final String EMBEDDED_TOPOLOGY = "spark.saba.embedded.topology";
    public static final String EMBEDDED_TABLE = "spark.saba.embedded.table";
    public static final String SIGNALS = "spark.saba.signals.enabled";
    public static final String SIGNALS_PATH = "spark.saba.signals.path";

    /** Reads and checks the configuration; throws IllegalArgumentException naming the offending key. */
    public static SabaConf from(SparkConf conf) {
        String address = trimmed(conf, ADDRESS);
        if (address != null) {
            checkAddress(address);
        }
        String workload = trimmed(conf, WORKLOAD);
        if (workload == null) {
            workload = workloadFromAppName(conf.get("spark.app.name", ""));
        }
        FallbackPolicy fallback = FallbackPolicy.parse(conf.get(FALLBACK, "AUTO"), FALLBACK);
        String map = trimmed(conf, DSCP_MAP);
        DscpMap dscp = map == null ? DscpMap.classSelectors() : DscpMap.parse(map, DSCP_MAP);
        Path trust = existingFile(conf, TLS_TRUST);
        return new SabaConf(address, workload, fallback, dscp, trimmed(conf, TOKEN), trust,
                duration(conf, REGISTER_TIMEOUT, "10s"), duration(conf, RPC_DEADLINE, "5s"),
                duration(conf, LEVEL_REFRESH, "1s"), existingFile(conf, EMBEDDED_TOPOLOGY),
                existingFile(conf, EMBEDDED_TABLE), bool(conf, SIGNALS, true), directory(conf, SIGNALS_PATH));
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
        return ClientConfig.defaults(target).withDeadline(rpcDeadline).withToken(token).withTls(tlsTrust)
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
