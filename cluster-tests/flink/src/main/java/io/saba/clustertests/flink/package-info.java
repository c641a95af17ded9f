/** The job the Flink real-cluster tests submit: plain Flink, nothing of Saba's. */
package io.saba.clustertests.flink;
