/**
 * The sensitivity table: workload → chosen model, its family, errors, candidates and profiling context
 * ({@link io.saba.core.table.SensitivityTable}), and its JSON form ({@link io.saba.core.table.SensitivityTableCodec},
 * documented in docs/sensitivity-table.md).
 */
package io.saba.core.table;
