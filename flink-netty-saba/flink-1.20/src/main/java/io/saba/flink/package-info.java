/**
 * Saba for Flink 1.20: only {@link io.saba.flink.SabaShuffleServiceFactory}, which gives each level data
 * connections of its own the way this Flink allows; everything else is in the common module, shaded into this
 * module's jar.
 */
package io.saba.flink;
