package io.saba.controller.fabric;

import java.time.Duration;
import java.time.Instant;

/**
 * How a backend that reads its ports back looks for drift (another agent rewriting what it wrote): how often
 * ({@link Duration#ZERO}: no periodic check is configured), when it last looked (null before the first check), how
 * many ports it read then, and whether it writes its own configuration back where it finds drift.
 */
public record DriftCheck(Duration every, Instant last, int ports, boolean repairs) {
}
