/**
 * Saba for Spark 4: only {@link org.apache.spark.shuffle.saba.SabaShuffleManager}, which starts the plugin
 * the way this Spark allows; everything else is in the common module, shaded into this module's jar.
 */
package org.apache.spark.shuffle.saba;
