package io.saba.client;

import io.saba.wire.DscpMap;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link SabaClient} reaches the controller. Defaults suit a datacenter LAN: short deadlines so a slow
 * controller never holds the client's sender thread for long, a queue large enough for bursts of connection events.
 *
 * @param target         "host:port" of the controller, or of several members of a controller group separated by
 *                       commas ("c1:7070,c2:7070,c3:7070"): the client uses one at a time and moves to the next
 *                       when a call fails for a reason other than the request itself
 * @param token          bearer token for the controller's token authentication, or null
 * @param trustCertPem   PEM certificate(s) to trust for TLS, or null for plaintext
 * @param deadline       deadline of every RPC
 * @param queueCapacity  events buffered before the client gives up on them and re-syncs its whole state instead
 * @param maxBatch       events sent in one ReportConnections call
 * @param initialBackoff first retry delay after the controller became unreachable
 * @param maxBackoff     retry delay cap
 * @param dscpMap        level → DSCP
 */
public record ClientConfig(String target, String token, Path trustCertPem, Duration deadline, int queueCapacity,
                           int maxBatch, Duration initialBackoff, Duration maxBackoff, DscpMap dscpMap) {
    public ClientConfig {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(deadline, "deadline");
        Objects.requireNonNull(dscpMap, "dscpMap");
        if (queueCapacity < 1 || maxBatch < 1 || maxBatch > 10_000) {
            throw new IllegalArgumentException("queueCapacity ≥ 1 and 1 ≤ maxBatch ≤ 10000 required");
        }
    }

    /** The controller addresses in {@link #target}, in order. */
    public java.util.List<String> targets() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String t : target.split(",")) {
            if (!t.isBlank()) {
                out.add(t.trim());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no controller address in target '" + target + "'");
        }
        return out;
    }

    /** Plaintext, no token, 2 s deadlines, 64 Ki events queued, batches of 1,000, backoff 100 ms … 30 s, CS0..CS7. */
    public static ClientConfig defaults(String target) {
        return new ClientConfig(target, null, null, Duration.ofSeconds(2), 65_536, 1_000,
                Duration.ofMillis(100), Duration.ofSeconds(30), DscpMap.classSelectors());
    }

    public ClientConfig withToken(String t) {
        return new ClientConfig(target, t, trustCertPem, deadline, queueCapacity, maxBatch, initialBackoff,
                maxBackoff, dscpMap);
    }

    public ClientConfig withTls(Path trust) {
        return new ClientConfig(target, token, trust, deadline, queueCapacity, maxBatch, initialBackoff,
                maxBackoff, dscpMap);
    }

    public ClientConfig withDeadline(Duration d) {
        return new ClientConfig(target, token, trustCertPem, d, queueCapacity, maxBatch, initialBackoff,
                maxBackoff, dscpMap);
    }

    public ClientConfig withBackoff(Duration initial, Duration max) {
        return new ClientConfig(target, token, trustCertPem, deadline, queueCapacity, maxBatch, initial, max,
                dscpMap);
    }

    /** A DSCP map other than CS0..CS7, e.g. {@code DscpMap.parse("0:0,1:10,2:18,3:26", "saba.dscp")}. */
    public ClientConfig withDscpMap(DscpMap map) {
        return new ClientConfig(target, token, trustCertPem, deadline, queueCapacity, maxBatch, initialBackoff,
                maxBackoff, map);
    }

    public ClientConfig withQueueCapacity(int capacity) {
        return new ClientConfig(target, token, trustCertPem, deadline, capacity, maxBatch, initialBackoff,
                maxBackoff, dscpMap);
    }
}
