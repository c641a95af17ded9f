package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.ModelChoice;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corun method's competitor loop with real processes: the profiled "workload" takes ~1.2 s below full rate, the
 * competitor is a short shell command. Checks that the competitor is restarted until the profiled run ends and is
 * gone after it, that nothing runs beside the full-rate baseline, and that a run the competitor was not there for
 * all along (it failed, or a queue carried nothing) is journaled as failed and never sampled.
 */
class CompetitorLoopTest {
    private static final List<Double> LEVELS = List.of(50.0, 100.0);

    /** 1.2 s beside the competitor, 0.6 s alone; reports its own time. */
    private static CommandWorkload workload(Path dir) {
        String script = "l=$(cat " + dir.resolve("rate") + "); t=$(echo \"$l\" | awk '{print 60 / $1}'); sleep $t; "
                + "echo \"SABA_RESULT workload=t seconds=$t\"";
        return new CommandWorkload(List.of("sh", "-c", script), Map.of(), java.time.Duration.ofSeconds(20));
    }

    private static int lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file).size() : 0;
    }

    @Test
    void theCompetitorIsRestartedUntilTheRunEndsAndNotThereAtFullRate(@TempDir Path dir) throws Exception {
        Path starts = dir.resolve("competitor.starts");
        Path alive = dir.resolve("competitor.alive");
        // each competitor run marks its start, then "works" 0.3 s; one left running would keep touching alive
        String competitor = "echo start >> " + starts + "; for i in 1 2 3; do touch " + alive + "; sleep 0.1; done";
        CompetitorLoop loop = new CompetitorLoop("sort", List.of("sh", "-c", competitor), Map.of(), null, Map.of());
        Profiler.Outcome o = new Profiler(ProfilerTest.hook(dir), TrafficRecorder.NONE, loop, s -> { })
                .profile("t", workload(dir), LEVELS, 1, ModelChoice.paper(1), new RunJournal(dir.resolve("runs.csv")),
                        dir, ProfilingContext.UNKNOWN);
        assertTrue(o.runs().stream().allMatch(RunRecord::completed), o.runs().toString());
        assertEquals(List.of(100.0, 50.0), o.entry().samples().stream().map(Sample::bandwidthPercent).toList());
        int started = lines(starts);
        assertTrue(started >= 3, "1.2 s of runs of 0.3 s: restarted several times, got " + started);
        assertTrue(Files.exists(dir.resolve("t-b50-r0-sort-0.log")) && !Files.exists(dir.resolve("t-b100-r0-sort-0.log")),
                "competitor logs beside the run's, none at full rate");
        long last = Files.getLastModifiedTime(alive).toMillis();
        Thread.sleep(600);
        assertEquals(last, Files.getLastModifiedTime(alive).toMillis(), "no competitor runs after the profiled run");
        assertEquals(started, lines(starts));
    }

    @Test
    void aRunWithoutItsCompetitorAllAlongIsNotASample(@TempDir Path dir) throws Exception {
        CompetitorLoop failing = new CompetitorLoop("sort", List.of("sh", "-c", "echo 'no executors' >&2; exit 5"),
                Map.of(), null, Map.of());
        RunJournal a = new RunJournal(dir.resolve("a.csv"));
        // only the baseline is left to fit: the profile says so, and the journal says why
        assertThrows(IllegalStateException.class, () -> new Profiler(ProfilerTest.hook(dir), TrafficRecorder.NONE,
                failing, s -> { }).profile("t", workload(dir), LEVELS, 1, ModelChoice.paper(1), a, dir,
                ProfilingContext.UNKNOWN));
        RunRecord spoiled = a.read().get(1);
        assertEquals(RunRecord.Outcome.FAILED, spoiled.outcome());
        assertTrue(spoiled.detail().startsWith("the competitor sort failed (exit 5: no executors; log "),
                spoiled.detail());

        // the competitor ran, but nothing went through the profiled workload's queue: its weight never acted
        AtomicLong competitorBytes = new AtomicLong();
        CompetitorLoop untagged = new CompetitorLoop("sort", List.of("sh", "-c", "sleep 5"), Map.of(),
                () -> Map.of(0, 1000L, 1, competitorBytes.addAndGet(5000)),
                Map.of(0, "the profiled workload", 1, "the competitor sort"));
        RunJournal b = new RunJournal(dir.resolve("b.csv"));
        assertThrows(IllegalStateException.class, () -> new Profiler(ProfilerTest.hook(dir), TrafficRecorder.NONE,
                untagged, s -> { }).profile("u", workload(dir), LEVELS, 1, ModelChoice.paper(1), b, dir,
                ProfilingContext.UNKNOWN));
        assertEquals("the profiled workload sent nothing through its Saba queue 0 during the run (its traffic was not "
                + "in the class its weight was set on)", b.read().get(1).detail());
    }
}
