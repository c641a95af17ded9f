package io.saba.harness.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutcomeCsvTest {
    @TempDir
    Path dir;

    @Test
    void rowsKeepTheirFormatAndRoundTrip() throws Exception {
        OutcomeCsv csv = new OutcomeCsv(dir.resolve("jobs.csv"));
        JobOutcome a = new JobOutcome(0, "j0", "sort", 0.5, 4, 10, 5);
        JobOutcome b = new JobOutcome(0, "j1", "lr, big", 1.0, 2, 12, 6);
        csv.append(List.of(a, b));
        List<String> lines = Files.readAllLines(csv.file());
        assertEquals(OutcomeCsv.HEADER, lines.get(0));
        assertEquals("0,j0,sort,0.5,4,10.000000,5.000000,2.000000", lines.get(1));
        assertEquals(List.of(a, b), csv.read());
    }

    @Test
    void aTornLineIsDroppedAndTheNextAppendStartsOnItsOwnLine() throws Exception {
        OutcomeCsv csv = new OutcomeCsv(dir.resolve("jobs.csv"));
        JobOutcome a = new JobOutcome(0, "j0", "sort", 0.5, 4, 10, 5);
        csv.append(List.of(a));
        Files.writeString(csv.file(), "1,j0,sort,0.5,4,10.0", StandardOpenOption.APPEND);
        assertEquals(List.of(a), csv.read());
        JobOutcome c = new JobOutcome(1, "j0", "sort", 0.5, 4, 8, 4);
        csv.append(List.of(c));
        assertEquals(List.of(a, c), csv.read());
    }

    /**
     * A write stopped inside a row's last number leaves a line of the right width with a wrong value: it has no
     * newline, so it is not read, and the next append replaces it instead of completing it.
     */
    @Test
    void aLineCutInsideItsLastValueIsNeverRead() throws Exception {
        OutcomeCsv csv = new OutcomeCsv(dir.resolve("jobs.csv"));
        JobOutcome a = new JobOutcome(0, "j0", "sort", 0.5, 4, 10, 5);
        csv.append(List.of(a));
        Files.writeString(csv.file(), "1,j9,sort,0.5,4,10.000000,5.000000,2.0", StandardOpenOption.APPEND);
        assertEquals(List.of(a), csv.read(), "the cut row is not a row yet");
        JobOutcome c = new JobOutcome(1, "j0", "sort", 0.5, 4, 8, 4);
        csv.append(List.of(c));
        assertEquals(List.of(a, c), csv.read(), "the cut row is gone, not completed by the next append");
    }
}
