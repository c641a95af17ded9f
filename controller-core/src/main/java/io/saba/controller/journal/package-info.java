/**
 * Durable controller state: an append-only, checksummed journal of mutations, replayed at start and compacted.
 * See {@link io.saba.controller.journal.Journal} for why a journal and {@link io.saba.controller.journal.FsyncPolicy}
 * for what each fsync policy guarantees.
 */
package io.saba.controller.journal;
