package io.saba.controller.log;

import io.saba.controller.journal.Journal;
import io.saba.controller.state.StateReads;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lone controller's log: writes are applied at once, in the order they arrive, and with a {@link Journal} kept
 * there first (replayed at start, compacted when it has grown well past the live state). Without a journal the
 * state lives in memory only.
 */
public final class LocalLog implements StateLog {
    private static final Logger LOG = LoggerFactory.getLogger(LocalLog.class);
    private static final long COMPACT_AFTER = 1_000_000;

    private final Journal journal;
    private Replica replica;

    /** @param journal where writes are kept, or null for a memory-only controller */
    public LocalLog(Journal journal) {
        this.journal = journal;
    }

    @Override
    public synchronized void open(Replica r) {
        this.replica = r;
        if (journal == null) {
            return;
        }
        List<LogRequest> kept = journal.replay();
        r.restore(kept);
        journal.compact(r.snapshot());
        if (!kept.isEmpty()) {
            LOG.info("restored {} applications and {} connections from {} journal records",
                    r.read(StateReads::appCount), r.read(StateReads::connectionCount), kept.size());
        }
    }

    /**
     * Appends (the journal's order is the order of application) and applies under this log's lock, then commits
     * outside it before answering: the write to the file, which a busy disk can hold up, does not keep the next
     * requests from being applied, and one write carries every request appended meanwhile (see {@link Journal}).
     */
    @Override
    public Object write(LogRequest request) {
        Object outcome;
        long seq = 0;
        synchronized (this) {
            if (journal != null) {
                seq = journal.append(request);
            }
            outcome = replica.apply(request);
            if (journal != null && journal.appendsSinceCompaction()
                    > Math.max(COMPACT_AFTER, 4 * replica.read(StateReads::connectionCount))) {
                journal.compact(replica.snapshot());
            }
        }
        if (journal != null) {
            journal.commit(seq);
        }
        if (outcome instanceof RuntimeException e) {
            throw e;
        }
        return outcome;
    }

    @Override
    public synchronized void close() {
        if (journal != null) {
            journal.close();
        }
    }
}
