/**
 * The offline profiler: runs a workload at each bandwidth level, records every run (failures included), turns
 * completion times into slowdowns against the unthrottled runs, and fits the sensitivity table with the core's
 * {@link io.saba.core.model.ModelFitter}.
 */
package io.saba.profiler;
