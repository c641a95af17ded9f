/**
 * Saba for Apache Flink: a shuffle-service factory ({@link io.saba.flink.SabaShuffleServiceFactory}) that wraps
 * Flink's Netty shuffle. The JobManager side ({@link io.saba.flink.SabaShuffleMaster}) registers every job with the
 * Saba controller and encodes the job's level in each partition's connection index; the TaskManager side
 * ({@link io.saba.flink.SabaShuffleEnvironment}) tags the server socket that serves a partition with that level's
 * DSCP, on separate sockets per level ({@link io.saba.flink.LevelConnections}), and reports each task's work signals
 * when it ends ({@link io.saba.flink.TaskSignals}). Keys: {@link io.saba.flink.SabaOptions}.
 */
package io.saba.flink;
