/**
 * Saba for Spark, the part every Spark version shares: {@link org.apache.spark.shuffle.saba.SabaSortShuffleManager}
 * (delegates data movement to Spark's sort shuffle; each version module's {@code SabaShuffleManager} extends it and
 * only starts the plugin its Spark's way) and {@link org.apache.spark.shuffle.saba.SabaPlugin} (registration on the
 * driver, DSCP tagging of every connection of the driver and the executors, connection reports). Executors never
 * talk to the controller: they ask the driver for the application's TOS and send it their connections over Spark's
 * plugin RPC, so the application has exactly one Saba client and one connection set. The package sits in Spark's
 * namespace as Spark's shuffle-manager anchors do; it uses only public-in-bytecode Spark types.
 */
package org.apache.spark.shuffle.saba;
