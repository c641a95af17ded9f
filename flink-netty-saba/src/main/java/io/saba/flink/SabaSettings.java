package io.saba.flink;

import io.saba.client.ClientConfig;
import io.saba.wire.DscpMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;

/**
 * The validated settings, parsed in this one place so a mistake fails the JobManager or TaskManager at start-up with
 * an {@link IllegalConfigurationException} that names the key.
 *
 * @param controllerAddress "host:port", or null for an embedded controller
 * @param embeddedConfig    controller YAML for the embedded controller, or null for the built-in default
 */
public record SabaSettings(String controllerAddress, Path embeddedConfig, String workload, Duration timeout,
                           Duration registerWait, boolean failFast, String token, DscpMap dscpMap, boolean tagConnections) {

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
        return new SabaSettings(address, embeddedPath, get(conf, SabaOptions.WORKLOAD).trim(), timeout, wait,
                get(conf, SabaOptions.FAIL_FAST), trimmedOrNull(conf, SabaOptions.TOKEN), dscp,
                get(conf, SabaOptions.TAG_CONNECTIONS));
    }

    /** Client settings for a controller at {@code target}. */
    public ClientConfig clientConfig(String target) {
        ClientConfig c = ClientConfig.defaults(target).withDeadline(timeout);
        return token == null ? c : c.withToken(token);
    }

    private static void checkAddress(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw bad(SabaOptions.CONTROLLER_ADDRESS, "'" + address + "' is not host:port");
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port < 1 || port > 65535) {
                throw bad(SabaOptions.CONTROLLER_ADDRESS, "port " + port + " outside 1..65535");
            }
        } catch (NumberFormatException e) {
            throw bad(SabaOptions.CONTROLLER_ADDRESS, "'" + address + "' has no numeric port");
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
            throw new IllegalConfigurationException(key.key() + ": " + e.getMessage(), e);
        }
    }

    static IllegalConfigurationException bad(ConfigOption<?> key, String why) {
        return new IllegalConfigurationException(key.key() + ": " + why);
    }
}
