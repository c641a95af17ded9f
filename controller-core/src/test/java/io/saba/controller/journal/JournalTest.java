package io.saba.controller.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.Transport;
import io.saba.wire.ConnectionKey;
import io.saba.controller.state.Mutation;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
    private static final ConnectionKey K = new ConnectionKey("10.0.0.1", 1, "fd00::2", 2, Transport.RDMA);

    private static List<Mutation> sample() {
        return List.of(new Mutation.Register("a", "lr", "spark", "alice", 3, "tenant-1"),
                new Mutation.Opened("a", K, 7), new Mutation.Closed("a", K, 8),
                new Mutation.Sync("a", List.of(K, K), 9), new Mutation.Deregister("a", "lease expired"));
    }

    @Test
    void everyMutationRoundTrips(@TempDir Path dir) {
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
            j.append(new Mutation.Deregister("a", "again"));
            j.commit();
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(5, j.replay().size(), "new records follow the last good one");
        }
    }

    @Test
    void compactionReplacesTheLogAtomically(@TempDir Path dir) {
        try (Journal j = new Journal(dir, FsyncPolicy.INTERVAL, 5)) {
            for (int i = 0; i < 1000; i++) {
                j.append(new Mutation.Opened("a", K, i));
            }
            j.commit();
            j.compact(List.of(new Mutation.Register("a", "lr", "", "", 0, "")));
            assertEquals(0, j.appendsSinceCompaction());
            j.append(new Mutation.Opened("a", K, 1));
            j.commit();
        }
        try (Journal j = new Journal(dir, FsyncPolicy.NEVER, 20)) {
            assertEquals(List.of(new Mutation.Register("a", "lr", "", "", 0, ""), new Mutation.Opened("a", K, 1)),
                    j.replay());
        }
        assertTrue(!Files.exists(dir.resolve("journal.log.tmp")));
    }
}
