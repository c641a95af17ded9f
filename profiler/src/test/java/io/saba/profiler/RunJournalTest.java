package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunJournalTest {
    @TempDir
    Path dir;

    @Test
    void aDetailWithACommaOrAQuoteRoundTrips() throws Exception {
        RunJournal journal = new RunJournal(dir.resolve("runs.csv"));
        String detail = "exit 3: \"boom\", out of memory, see run.log";
        journal.append(RunRecord.completed(100, 0, 12.5));
        journal.append(RunRecord.failed(25, 1, RunRecord.Outcome.FAILED, detail));
        List<String> lines = Files.readAllLines(journal.file());
        assertEquals(List.of(RunJournal.HEADER, "100,0,COMPLETED,12.500,"), lines.subList(0, 2));
        List<RunRecord> read = journal.read();
        assertEquals(2, read.size());
        assertEquals(12.5, read.get(0).seconds(), 1e-9);
        assertEquals(detail, read.get(1).detail());
        assertEquals(RunRecord.Outcome.FAILED, read.get(1).outcome());
    }

    @Test
    void aJournalWithUnquotedDetailsReads() throws Exception {
        Path file = Files.writeString(dir.resolve("runs.csv"), RunJournal.HEADER + "\n"
                + "50,0,COMPLETED,3.250,\n"
                + "10,1,TIMED_OUT,,killed after 2 s; see x.log\n"
                + "25,0,FAILED,,\"boom\" said the job; exit 3\n");
        List<RunRecord> read = new RunJournal(file).read();
        assertEquals(3, read.size());
        assertEquals(3.25, read.get(0).seconds(), 1e-9);
        assertEquals("killed after 2 s; see x.log", read.get(1).detail());
        assertEquals("\"boom\" said the job; exit 3", read.get(2).detail());
    }
}
