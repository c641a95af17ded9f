package io.saba.controller.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.log.LogRequest;
import io.saba.controller.log.MutationCodec;
import io.saba.controller.state.Mutation;
import io.saba.core.model.SensitivityModel;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
    private static final ConnectionKey K = new ConnectionKey("10.0.0.1", 1, "fd00::2", 2, Transport.RDMA);

    private static LogRequest call(String tenant, LogRequest.Kind kind, Mutation... ms) {
        return new LogRequest.Call(tenant, kind, List.of(ms));
    }

    private static List<LogRequest> sample() {
        return List.of(call("tenant-1", LogRequest.Kind.REGISTER,
                        new Mutation.Register("a", "lr", "spark", "alice", 3, "tenant-1")),
                call("tenant-1", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 7)),
                call("tenant-1", LogRequest.Kind.BATCH, new Mutation.Closed("a", K, 8),
                        new Mutation.Sync("a", List.of(K, K), 9)),
                new LogRequest.Table(new TreeMap<>(Map.of("lr", SensitivityModel.of(5, -8, 4),
                        "inv", SensitivityModel.inverse(0.4, 0.6))), new TreeMap<>()),
                new LogRequest.Expire(Map.of("a", "tenant-1")));
    }

    @Test
    void everyRequestRoundTrips(@TempDir Path dir) {
        try (Journal j = new Journal(dir, FsyncPolicy.ALWAYS, 20)) {
            sample().forEach(j::append);
            j.commit();
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(sample(), j.replay());
        }
    }

    @Test
    void aCorruptRecordEndsReplayAndIsCutOff(@TempDir Path dir) throws Exception {
        try (Journal j = new Journal(dir, FsyncPolicy.ALWAYS, 20)) {
            sample().forEach(j::append);
            j.commit();
        }
        Path f = dir.resolve("journal.log");
        long size = Files.size(f);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(size - 3); // inside the last record's payload: its checksum no longer matches
            raf.write(0x7F);
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(sample().subList(0, 4), j.replay(), "records before the damage survive");
            assertTrue(Files.size(f) < size, "the damaged tail was truncated");
            j.append(call("", LogRequest.Kind.DEREGISTER, new Mutation.Deregister("a", "again")));
            j.commit();
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(5, j.replay().size(), "new records follow the last good one");
        }
    }

    @Test
    void compactionReplacesTheLogAtomically(@TempDir Path dir) {
        LogRequest register = call("", LogRequest.Kind.REGISTER, new Mutation.Register("a", "lr", "", "", 0, ""));
        LogRequest open = call("", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 1));
        try (Journal j = new Journal(dir, FsyncPolicy.INTERVAL, 5)) {
            for (int i = 0; i < 1000; i++) {
                j.append(call("", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, i)));
            }
            j.commit();
            j.compact(List.of(register));
            assertEquals(0, j.appendsSinceCompaction());
            j.append(open);
            j.commit();
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(List.of(register, open), j.replay());
        }
        assertTrue(!Files.exists(dir.resolve("journal.log.tmp")));
    }

    @Test
    void aJournalOfBareMutationsReadsAsTheCallsTheyCameFrom(@TempDir Path dir) throws Exception {
        // the format before the journal logged requests: each record one mutation, no tenant on connection events
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(file);
        for (Mutation m : List.of(new Mutation.Register("a", "lr", "spark", "alice", 0, "team-a"),
                new Mutation.Opened("a", K, 7), new Mutation.Deregister("b", "lease expired"))) {
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            MutationCodec.write(m, new DataOutputStream(one));
            CRC32 crc = new CRC32();
            crc.update(one.toByteArray());
            out.writeInt(one.size());
            out.writeInt((int) crc.getValue());
            out.write(one.toByteArray());
        }
        Files.write(dir.resolve("journal.log"), file.toByteArray());
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(List.of(
                    call("team-a", LogRequest.Kind.REGISTER, new Mutation.Register("a", "lr", "spark", "alice", 0,
                            "team-a")),
                    call("team-a", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 7)),
                    call("", LogRequest.Kind.DEREGISTER, new Mutation.Deregister("b", "lease expired"))), j.replay());
        }
    }

    /** Complete records in the journal file (length, checksum, payload), however many a commit has written. */
    private static int recordsInFile(Path dir) throws Exception {
        byte[] b = Files.readAllBytes(dir.resolve("journal.log"));
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b);
        int n = 0;
        while (buf.remaining() >= 8) {
            int len = buf.getInt();
            buf.getInt();
            if (buf.remaining() < len) {
                break;
            }
            buf.position(buf.position() + len);
            n++;
        }
        return n;
    }

    /**
     * Appends under one lock and commits outside it from several threads (what the log does): when a commit of
     * sequence number s returns, the file holds at least s records, and replay gives them in the order appended.
     */
    @Test
    void aCommitReturnsOnceItsRecordIsInTheFileWhoeverWroteIt(@TempDir Path dir) throws Exception {
        Object logLock = new Object();
        List<LogRequest> order = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        try (Journal j = new Journal(dir, FsyncPolicy.INTERVAL, 5)) {
            List<Thread> threads = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 300; i++) {
                            LogRequest r = call("", LogRequest.Kind.EVENT, new Mutation.Opened("a" + id, K, i + 1));
                            long seq;
                            synchronized (logLock) {
                                seq = j.append(r);
                                order.add(r);
                            }
                            j.commit(seq);
                            int inFile = recordsInFile(dir);
                            if (inFile < seq) {
                                throw new AssertionError("record " + seq + " committed, the file holds " + inFile);
                            }
                        }
                    } catch (Throwable e) {
                        failed.compareAndSet(null, e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
        }
        if (failed.get() != null) {
            throw new AssertionError(failed.get());
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(order, j.replay());
        }
    }

    /** A commit writes its record even when later ones were appended meanwhile (they go in the same write). */
    @Test
    void aCommitTakesEverythingAppendedSoFar(@TempDir Path dir) throws Exception {
        try (Journal j = new Journal(dir, FsyncPolicy.INTERVAL, 5)) {
            long first = j.append(call("", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 1)));
            j.append(call("", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 2)));
            assertEquals(0, Files.exists(dir.resolve("journal.log")) ? recordsInFile(dir) : 0, "appending writes nothing");
            j.commit(first);
            assertEquals(2, recordsInFile(dir));
        }
    }

    /** Records appended but not yet written when the log compacts are in the compacted state: committed, not kept. */
    @Test
    void aCompactionCommitsWhatWasAppendedBeforeIt(@TempDir Path dir) throws Exception {
        LogRequest register = call("", LogRequest.Kind.REGISTER, new Mutation.Register("a", "lr", "", "", 0, ""));
        try (Journal j = new Journal(dir, FsyncPolicy.ALWAYS, 20)) {
            j.append(register);
            long last = j.append(call("", LogRequest.Kind.EVENT, new Mutation.Opened("a", K, 1)));
            j.compact(List.of(register));
            j.commit(last); // returns at once: the compacted file holds its effect
            assertEquals(1, recordsInFile(dir));
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(List.of(register), j.replay());
        }
    }
}
