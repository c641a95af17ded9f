/**
 * Grouping for Saba's two mapping layers (paper §5.3): applications into priority levels by K-means on their
 * sensitivity models ({@link io.saba.core.cluster.LevelAssigner}), and priority levels into a port's queues by
 * agglomerative clustering ({@link io.saba.core.cluster.LevelHierarchy}).
 *
 * <p>Level numbering used throughout Saba: level 0 is the default / best-effort class that unregistered traffic
 * carries and Saba never hands to an application; Saba applications get levels 1..S-1. Clustered from scratch, a
 * higher level number means a more bandwidth-sensitive group; once applications run their levels are labels that
 * stay put (a newcomer takes a free number), so no level's meaning hangs on its number: the per-port hierarchy
 * merges levels by their centroids, and queue weights follow the levels wherever they land.
 */
package io.saba.core.cluster;
