/**
 * Saba's one class in Flink 2's Netty package: {@link org.apache.flink.runtime.io.network.netty.LevelConnectionManager},
 * which needs package-private Flink types.
 */
package org.apache.flink.runtime.io.network.netty;
