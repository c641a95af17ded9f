/**
 * Grouping for Saba's two mapping layers (paper §5.3): applications into priority levels by K-means on their
 * sensitivity models ({@link io.saba.core.cluster.LevelAssigner}), and priority levels into a port's queues by
 * agglomerative clustering ({@link io.saba.core.cluster.LevelHierarchy}).
 *
 * <p>Level numbering used throughout Saba: level 0 is the default / best-effort class that unregistered traffic
 * carries and Saba never hands to an application; Saba applications get levels 1..S-1, and a higher level number
 * means a more bandwidth-sensitive group.
 */
package io.saba.core.cluster;
