/**
 * Saba for Apache Flink, the part every Flink version shares: a shuffle-service factory
 * ({@link io.saba.flink.LevelTaggingShuffleServiceFactory}; each version module's {@code SabaShuffleServiceFactory}
 * extends it and only gives each level connections of its own its Flink's way) that wraps
 * Flink's Netty shuffle. The JobManager side ({@link io.saba.flink.SabaShuffleMaster}) registers every job with the
 * Saba controller and encodes the job's level in each partition's connection index; the TaskManager side
 * ({@link io.saba.flink.SabaShuffleEnvironment}) tags the server socket that serves a partition with that level's
 * DSCP, on separate sockets per level ({@link io.saba.flink.LevelConnections}), and reports each task's work signals
 * when it ends ({@link io.saba.flink.TaskSignals}). Keys: {@link io.saba.flink.SabaOptions}.
 */
package io.saba.flink;
