/**
 * Durable state of a lone controller: an append-only, checksummed journal of the requests its log applied, replayed
 * at start and compacted. See {@link io.saba.controller.journal.Journal} for why a journal and
 * {@link io.saba.controller.journal.FsyncPolicy} for what each fsync policy guarantees.
 */
package io.saba.controller.journal;
