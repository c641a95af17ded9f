package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.corun.TrafficRecord;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrafficRecordFileTest {
    @TempDir
    Path dir;

    @Test
    void aRecordIsWrittenInItsColumnsAndReadsBack() throws Exception {
        Path file = dir.resolve("sort-b100-r0.traffic.csv");
        TrafficRecordFile.write(file, new TrafficRecord(0.1, new double[] {0, 0.5, 0.25}));
        assertEquals("seconds,utilisation\n0.000,0.0000\n0.100,0.5000\n0.200,0.2500\n", Files.readString(file));
        TrafficRecord read = TrafficRecordFile.read(file);
        assertEquals(0.1, read.intervalSeconds(), 1e-12);
        assertArrayEquals(new double[] {0, 0.5, 0.25}, read.utilisation(), 0);
    }

    @Test
    void aCommittedProfilesRecordReads() throws Exception {
        // written by the profiler on the testbed: 310 intervals of 0.1 s, line 100 is 9.800,0.0020
        TrafficRecord r = TrafficRecordFile.read(Path.of(
                "../examples/estimate-testbed/same-conditions/profile/sort/sort-b100-r0.traffic.csv"));
        assertEquals(0.1, r.intervalSeconds(), 1e-9);
        assertEquals(310, r.utilisation().length);
        assertEquals(0.0020, r.utilisation()[98], 0);
        assertEquals(1.0, r.utilisation()[247], 0);
        assertEquals(0.0023, r.utilisation()[309], 0);
    }

    @Test
    void whatIsNotARecordIsNamedWithItsLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.traffic.csv"), "seconds,utilisation\n0.000,0.1\n\n0.200,x\n");
        IOException e = assertThrows(IOException.class, () -> TrafficRecordFile.read(bad));
        assertTrue(e.getMessage().contains("bad.traffic.csv line 4: not 'seconds,utilisation': 0.200,x"),
                e.getMessage());
        Path header = Files.writeString(dir.resolve("h.csv"), "time,bytes\n0,1\n0.1,2\n");
        assertTrue(assertThrows(IOException.class, () -> TrafficRecordFile.read(header)).getMessage()
                .contains("not a traffic record"));
        Path torn = Files.writeString(dir.resolve("torn.csv"), "seconds,utilisation\n0.000,\"0.1\n");
        assertTrue(assertThrows(IOException.class, () -> TrafficRecordFile.read(torn)).getMessage()
                .contains("torn.csv: not CSV"));
        Path one = Files.writeString(dir.resolve("one.csv"), "seconds,utilisation\n0.000,0.1\n");
        assertTrue(assertThrows(IOException.class, () -> TrafficRecordFile.read(one)).getMessage()
                .contains("at least two intervals"));
    }
}
