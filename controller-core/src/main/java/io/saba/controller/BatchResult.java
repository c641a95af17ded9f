package io.saba.controller;

import java.util.Set;

/**
 * What a batch of connection events did: events applied, events skipped with the first reason, and the
 * applications the controller does not know (the client registers them again).
 */
public record BatchResult(int applied, int rejected, String firstRejection, Set<String> unknownApps) {
}
