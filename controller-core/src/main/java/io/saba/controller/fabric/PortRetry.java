package io.saba.controller.fabric;

import java.time.Instant;

/**
 * A port whose pushes fail, until one succeeds or its allocation changes: how many failed in a row, the backend's
 * latest reason, and when the latest failed (the controller retries after 1 s, doubling up to 60 s).
 */
public record PortRetry(int attempts, String reason, Instant lastFailed) {
}
