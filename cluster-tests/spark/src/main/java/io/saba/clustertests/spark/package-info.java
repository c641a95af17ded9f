/** The job the Spark real-cluster tests submit: plain Spark, nothing of Saba's. */
package io.saba.clustertests.spark;
