/**
 * The offline profiler: runs a workload at each bandwidth level, records every run (failures included), turns
 * completion times into slowdowns against the unthrottled runs, and fits the sensitivity table with the core's
 * {@link io.saba.core.model.ModelSelector} (every model family, chosen by cross-validated error).
 */
package io.saba.profiler;
