/**
 * Saba for Spark 3.5: only {@link org.apache.spark.shuffle.saba.SabaShuffleManager}, which starts the plugin
 * the way this Spark allows; everything else is in the common module, shaded into this module's jar.
 */
package org.apache.spark.shuffle.saba;
