package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobsCsvTest {
    @TempDir
    Path dir;

    private static JobRow row(int setup, int job, double base, double saba, String note) {
        return new JobRow(setup, new SetupJob("s" + setup + "-j" + job, "sort", 0.5, List.of(4, 2)),
                Double.isNaN(base) ? RunOutcome.failed("exit 1") : RunOutcome.ok(base),
                Double.isNaN(saba) ? RunOutcome.failed("exit 1") : RunOutcome.ok(saba), note);
    }

    @Test
    void rowsRoundTripWithFailuresAndNotes() throws Exception {
        JobsCsv csv = new JobsCsv(dir.resolve("jobs.csv"));
        csv.append(List.of(row(0, 0, 10, 5, ""), row(0, 1, 12, Double.NaN, "saba failed: exit 1, see x.log")));
        csv.append(List.of(row(1, 0, 8, 8, "")));
        List<String> lines = Files.readAllLines(csv.file());
        assertEquals(JobsCsv.HEADER, lines.get(0));
        assertEquals("0,s0-j0,sort,0.5,2,h2;h4,10.000,5.000,2.0000,", lines.get(1));
        assertEquals("0,s0-j1,sort,0.5,2,h2;h4,12.000,failed,,\"saba failed: exit 1, see x.log\"", lines.get(2));
        Map<Integer, List<JobRow>> read = csv.read();
        assertEquals(List.of(0, 1), List.copyOf(read.keySet()));
        JobRow ok = read.get(0).get(0);
        assertTrue(ok.complete());
        assertEquals(2.0, ok.speedup(), 1e-9);
        assertEquals(List.of(2, 4), ok.job().hosts());
        JobRow failed = read.get(0).get(1);
        assertFalse(failed.complete(), "a failed run is kept as failed");
        assertTrue(Double.isNaN(failed.speedup()));
        assertEquals(12.0, failed.baseline().seconds(), 1e-9);
        assertEquals("saba failed: exit 1, see x.log", failed.note());
    }

    @Test
    void aTornLineIsDroppedAndARerunSetupReplacesTheOldCopy() throws Exception {
        JobsCsv csv = new JobsCsv(dir.resolve("jobs.csv"));
        csv.append(List.of(row(0, 0, 10, 5, ""), row(0, 1, 10, 5, "")));
        Files.writeString(csv.file(), "1,s1-j0,sort,0.5,2,h2;h4,10.0", StandardOpenOption.APPEND);
        assertEquals(List.of(0), List.copyOf(csv.read().keySet()), "the torn setup is not there");
        Files.writeString(csv.file(), "\n", StandardOpenOption.APPEND);
        csv.append(List.of(row(0, 0, 20, 5, ""), row(0, 1, 30, 5, "")));
        List<JobRow> s0 = csv.read().get(0);
        assertEquals(2, s0.size());
        assertEquals(20.0, s0.get(0).baseline().seconds(), 1e-9, "the last copy wins");
        assertEquals(30.0, s0.get(1).baseline().seconds(), 1e-9);
    }

    @Test
    void aNoteWithACommaOrAQuoteRoundTrips() {
        JobsCsv csv = new JobsCsv(dir.resolve("jobs.csv"));
        String note = "saba failed: exit 1, see \"x.log\", then y";
        csv.append(List.of(row(0, 0, 10, Double.NaN, note), row(0, 1, 10, 5, "")));
        List<JobRow> s0 = csv.read().get(0);
        assertEquals(2, s0.size(), "both rows read back");
        assertEquals(note, s0.get(0).note());
        assertEquals("", s0.get(1).note());
    }

    @Test
    void anAppendAfterATornLineKeepsTheNewRows() throws Exception {
        JobsCsv csv = new JobsCsv(dir.resolve("jobs.csv"));
        csv.append(List.of(row(0, 0, 10, 5, "")));
        Files.writeString(csv.file(), "1,s1-j0,sort,0.5,2,h2;h4,10.000,5.000,2.0000,\"torn", StandardOpenOption.APPEND);
        csv.append(List.of(row(1, 0, 20, 5, "")));
        Map<Integer, List<JobRow>> read = csv.read();
        assertEquals(List.of(0, 1), List.copyOf(read.keySet()));
        assertEquals(20.0, read.get(1).get(0).baseline().seconds(), 1e-9);
    }

    @Test
    void noFileIsNoRows() {
        assertTrue(new JobsCsv(dir.resolve("none.csv")).read().isEmpty());
    }
}
