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
}
