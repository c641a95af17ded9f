package io.saba.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.WorkSignals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignalsFileTest {
    @TempDir
    Path dir;

    private static WorkSignals stage(int id) {
        return new WorkSignals("stage " + id + ".0", "collect at Job.java:" + id, 1_700_000_000_000L + id, 4, 900,
                2_000, 120, Map.of("shuffle_fetch_wait", 120L), Map.of("shuffle_remote_read", 1L << 20),
                Map.of("shuffle_remote_blocks", 6L));
    }

    @Test
    void linesAreAppendedPerApplicationAndReadBack() throws Exception {
        AppSpec app = new AppSpec("app-20240101/1", "sort", "spark", "alice", 0);
        try (SignalsFile f = SignalsFile.in(dir.resolve("sub"), app)) {
            assertFalse(Files.exists(f.file()), "nothing on disk before the first line");
            f.append(stage(1));
            f.append(stage(2));
        }
        Path file = dir.resolve("sub").resolve("app-20240101_1.jsonl");
        assertEquals(List.of(stage(1), stage(2)), SignalsFile.read(file));
        String first = Files.readAllLines(file).get(0);
        assertTrue(first.startsWith("{\"app_id\":\"app-20240101/1\",\"workload\":\"sort\",\"framework\":\"spark\","
                + "\"unit\":\"stage 1.0\""), first);
        assertTrue(first.contains("\"network_wait_millis\":120,\"time_millis\":{\"shuffle_fetch_wait\":120}"), first);
        try (SignalsFile again = SignalsFile.in(dir.resolve("sub"), app)) {
            again.append(stage(3)); // a restarted driver appends
        }
        assertEquals(3, SignalsFile.read(file).size());
    }

    @Test
    void twoWritersOfOneApplicationAppendWholeLinesWithoutWaiting() throws Exception {
        // two TaskManagers of one host record the same job's tasks, each from a task's thread that must not wait
        AppSpec job = new AppSpec("job-1", "sort", "flink", "", 0);
        SignalsFile a = SignalsFile.in(dir, job);
        SignalsFile b = SignalsFile.in(dir, job);
        int n = 500;
        for (int i = 0; i < n; i++) {
            a.append(stage(i));
            b.append(stage(n + i));
        }
        a.closeWhenWritten();
        b.closeWhenWritten();
        long end = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(1);
        while (!Files.exists(a.file()) || Files.readAllLines(a.file()).size() < 2 * n) {
            assertTrue(System.nanoTime() < end, "all lines written");
            Thread.sleep(20);
        }
        List<WorkSignals> lines = SignalsFile.read(a.file()); // each line whole, or this throws
        assertEquals(2 * n, lines.size());
        assertEquals(2 * n, lines.stream().map(WorkSignals::unit).distinct().count());
        a.append(stage(-1)); // after closing: ignored, never thrown
        a.close();
    }

    @Test
    void anUnwritableDirectoryStopsTheRecordNotTheCaller() throws Exception {
        Path notADir = Files.writeString(dir.resolve("file"), "x");
        try (SignalsFile f = SignalsFile.in(notADir, new AppSpec("a", "sort", "spark", "", 0))) {
            f.append(stage(1));
            f.append(stage(2));
        }
        assertEquals("x", Files.readString(notADir));
    }

    @Test
    void aMalformedLineIsNamed() throws Exception {
        String good = SignalsFile.line(new AppSpec("a", "sort", "spark", "", 0), stage(1)).toString();
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), good + "\n{oops\n");
        String msg = assertThrows(IllegalArgumentException.class, () -> SignalsFile.read(bad)).getMessage();
        assertTrue(msg.startsWith(bad + ":2: not a work-signals line"), msg);
    }
}
