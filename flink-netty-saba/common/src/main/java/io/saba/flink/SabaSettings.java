package io.saba.flink;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.wire.DscpMap;
import io.saba.client.FallbackPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The validated settings, parsed in this one place so a mistake fails the JobManager or TaskManager at start-up with
 * an {@link IllegalConfigurationException} that names the key.
 *
 * @param controllerAddress "host:port", or null for an embedded controller
 * @param embeddedConfig    controller YAML for the embedded controller, or null for the built-in default
 * @param token             bearer token, or null
 * @param tlsTrust          PEM file to trust for TLS to the controller, or null for plaintext
 * @param timeout           deadline of each controller call (and NEVER's wait for a job's registration)
 * @param workload          the cluster-wide workload, or "" when unset (then each job's own, or its name)
 * @param signals           whether TaskManagers report their tasks' work signals
 * @param signalsPath       a directory for the JSON-lines record of the tasks' work signals, or null
 */
public record SabaSettings(String controllerAddress, Path embeddedConfig, String token, Path tlsTrust,
                           Duration timeout, String workload, FallbackPolicy fallback, DscpMap dscpMap,
                           boolean signals, Path signalsPath, Duration registerWait, boolean tagConnections) {
    private static final Logger LOG = LoggerFactory.getLogger(SabaSettings.class);

    public static SabaSettings from(Configuration conf) {
        String address = trimmedOrNull(conf, SabaOptions.CONTROLLER_ADDRESS);
        if (address != null) {
            checkAddress(address);
        }
        String embedded = trimmedOrNull(conf, SabaOptions.EMBEDDED_CONFIG);
        Path embeddedPath = null;
        if (embedded != null) {
            embeddedPath = Path.of(embedded);
            if (address == null && !Files.isReadable(embeddedPath)) {
                throw bad(SabaOptions.EMBEDDED_CONFIG, "cannot read file '" + embedded + "'");
            }
        }
        Duration timeout = get(conf, SabaOptions.CONTROLLER_TIMEOUT);
        if (timeout.isZero() || timeout.isNegative()) {
            throw bad(SabaOptions.CONTROLLER_TIMEOUT, "must be positive, got " + timeout);
        }
        Duration wait = get(conf, SabaOptions.REGISTER_WAIT);
        if (wait.isNegative()) {
            throw bad(SabaOptions.REGISTER_WAIT, "must not be negative, got " + wait);
        }
        String map = trimmedOrNull(conf, SabaOptions.DSCP_MAP);
        DscpMap dscp;
        try {
            dscp = map == null ? DscpMap.classSelectors() : DscpMap.parse(map, SabaOptions.DSCP_MAP.key());
        } catch (IllegalArgumentException e) {
            throw new IllegalConfigurationException(e.getMessage(), e);
        }
        return new SabaSettings(address, embeddedPath, trimmedOrNull(conf, SabaOptions.TOKEN),
                existingFile(conf, SabaOptions.TLS_TRUST), timeout, get(conf, SabaOptions.WORKLOAD).trim(),
                fallback(conf), dscp, get(conf, SabaOptions.SIGNALS_ENABLED), directory(conf, SabaOptions.SIGNALS_PATH),
                wait, get(conf, SabaOptions.TAG_CONNECTIONS));
    }

    /**
     * A job's workload: its own {@code saba.workload} (from its configuration), else the cluster's, else one derived
     * from its name as Spark derives it from the application's; a blank result is the default workload
     * ({@link AppSpec}). The JobManager registers the job under it and the TaskManagers record it with their tasks'
     * signals.
     *
     * @param jobConfiguration the job's own configuration, or null when unknown
     */
    public String workloadOf(Configuration jobConfiguration, String jobName) {
        String own = jobConfiguration == null ? "" : jobConfiguration.get(SabaOptions.WORKLOAD).trim();
        return !own.isEmpty() ? own : !workload.isEmpty() ? workload : AppSpec.workloadFromName(jobName);
    }

    /** A file that exists (read when the client connects, on the JobManager and on each TaskManager). */
    private static Path existingFile(Configuration conf, ConfigOption<String> key) {
        String v = trimmedOrNull(conf, key);
        if (v == null) {
            return null;
        }
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw bad(key, "no such file '" + v + "'");
        }
        return p;
    }

    /** A directory that exists or can be created later (the record creates it); not a file. */
    private static Path directory(Configuration conf, ConfigOption<String> key) {
        String v = trimmedOrNull(conf, key);
        if (v == null) {
            return null;
        }
        Path p = Path.of(v);
        if (Files.exists(p) && !Files.isDirectory(p)) {
            throw bad(key, "'" + v + "' is a file, not a directory");
        }
        return p;
    }

    /** {@code saba.fallback}, or the deprecated {@code saba.fail-fast} when only that is set. */
    @SuppressWarnings("deprecation")
    private static FallbackPolicy fallback(Configuration conf) {
        Boolean failFast = get(conf, SabaOptions.FAIL_FAST);
        boolean explicit = conf.contains(SabaOptions.FALLBACK);
        if (failFast != null && !explicit) {
            FallbackPolicy p = failFast ? FallbackPolicy.NEVER : FallbackPolicy.AUTO;
            LOG.warn("Saba: {} is deprecated; read as {}: {}", SabaOptions.FAIL_FAST.key(),
                    SabaOptions.FALLBACK.key(), p);
            return p;
        }
        if (failFast != null) {
            LOG.warn("Saba: {} is deprecated and ignored, since {} is set", SabaOptions.FAIL_FAST.key(),
                    SabaOptions.FALLBACK.key());
        }
        return wrap(SabaOptions.FALLBACK,
                () -> FallbackPolicy.parse(conf.get(SabaOptions.FALLBACK), SabaOptions.FALLBACK.key()));
    }

    /** Client settings for a controller at {@code target}. */
    public ClientConfig clientConfig(String target) {
        return ClientConfig.defaults(target).withDeadline(timeout).withToken(token).withTls(tlsTrust)
                .withDscpMap(dscpMap);
    }

    /** The same rules as spark.saba.controller.address. */
    private static void checkAddress(String address) {
        int colon = address.lastIndexOf(':');
        String host = colon < 0 ? "" : address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (colon < 0 || host.isEmpty() || host.contains(" ")) {
            throw bad(SabaOptions.CONTROLLER_ADDRESS, "'" + address + "' is not host:port");
        }
        String port = address.substring(colon + 1);
        int p;
        try {
            p = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw bad(SabaOptions.CONTROLLER_ADDRESS, "port '" + port + "' of '" + address + "' is not a number");
        }
        if (p < 1 || p > 65535) {
            throw bad(SabaOptions.CONTROLLER_ADDRESS, "port " + p + " of '" + address + "' outside 1..65535");
        }
    }

    private static String trimmedOrNull(Configuration conf, ConfigOption<String> key) {
        String v = get(conf, key);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** Flink's own parse errors (e.g. "fast" for a boolean) do not always name the key; these do. */
    private static <T> T get(Configuration conf, ConfigOption<T> key) {
        return wrap(key, () -> conf.get(key));
    }

    private static <T> T wrap(ConfigOption<?> key, Supplier<T> s) {
        try {
            return s.get();
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() != null && e.getMessage().startsWith(key.key()) ? e.getMessage()
                    : key.key() + ": " + e.getMessage();
            throw new IllegalConfigurationException(m, e);
        }
    }

    static IllegalConfigurationException bad(ConfigOption<?> key, String why) {
        return new IllegalConfigurationException(key.key() + ": " + why);
    }
}
