package io.saba.controller;

import java.util.List;
import java.util.Set;

/**
 * What a batch of connection events did: events applied, events skipped with the first reason, and the
 * applications the controller does not know (the client registers them again).
 */
public record BatchResult(int applied, int rejected, String firstRejection, Set<String> unknownApps,
                          List<Rejected> rejectedConnections) {

    /** A connection report refused as invalid: whose, and why (the client tells its application once). */
    public record Rejected(String appId, String reason) {
    }

    /** A result without connection reports refused as invalid. */
    public BatchResult(int applied, int rejected, String firstRejection, Set<String> unknownApps) {
        this(applied, rejected, firstRejection, unknownApps, List.of());
    }
}
