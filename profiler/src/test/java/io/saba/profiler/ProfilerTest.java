package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelFamily;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profiler with real processes: a command hook writes the level to a file (as an operator's script would set
 * NIC rates), and the "workload" is a shell command whose completion time depends on that level. Checks the
 * slowdowns, the fits, that failures and time-outs are journaled but never become samples, and resuming.
 */
class ProfilerTest {
    static final List<Double> LEVELS = List.of(10.0, 25.0, 50.0, 100.0);

    /** Reports 2 s x (1 + 100/level)/2: slowdown 1 at 100 %, 5.5 at 10 %; counts its runs in runs.count. */
    static CommandWorkload workload(Path dir, String extra) {
        String script = "echo run >> " + dir.resolve("runs.count") + "; l=$(cat " + dir.resolve("rate") + "); "
                + extra + " echo \"SABA_RESULT workload=t seconds=$(echo \"$l\" | awk '{print (1 + 100 / $1)}')\"";
        return new CommandWorkload(List.of("sh", "-c", script), Map.of(), Duration.ofSeconds(20));
    }

    static CommandHookRateLimiter hook(Path dir) {
        return new CommandHookRateLimiter("echo {percent} > " + dir.resolve("rate"), "test hook", Duration.ofSeconds(10));
    }

    static int count(Path dir) throws IOException {
        return Files.exists(dir.resolve("runs.count")) ? Files.readAllLines(dir.resolve("runs.count")).size() : 0;
    }

    @Test
    void measuresSlowdownsFitsAndPlots(@TempDir Path dir) throws Exception {
        List<String> progress = new ArrayList<>();
        Profiler p = new Profiler(hook(dir), progress::add);
        Profiler.Outcome o = p.profile("t", workload(dir, ""), LEVELS, 2, ModelChoice.AUTO,
                new RunJournal(dir.resolve("t/runs.csv")), dir.resolve("t"), ProfilingContext.UNKNOWN);
        assertEquals(8, o.runs().size());
        assertEquals(8, count(dir));
        assertEquals("100", Files.readString(dir.resolve("rate")).strip(), "the limit is reset after the profile");
        double[] slowdowns = o.entry().samples().stream().sorted((a, b) -> Double.compare(a.bandwidthPercent(),
                b.bandwidthPercent())).mapToDouble(Sample::slowdown).toArray();
        assertArrayEquals(new double[] {5.5, 5.5, 2.5, 2.5, 1.5, 1.5, 1, 1}, slowdowns, 1e-9);
        // time = 1 + 100 / level: compute + transfer, which the inverse family is, and cross-validation sees it
        assertEquals(ModelFamily.INVERSE, o.entry().family(), o.selection().candidates().toString());
        assertEquals(0, o.entry().fit().cvRmse(), 1e-9);
        assertEquals(o.selection(), o.entry().selection());
        assertEquals(Map.of(1, poly(o, 1).r2(), 2, poly(o, 2).r2(), 3, poly(o, 3).r2()),
                o.entry().context().r2ByDegree(), "the paper's R² of every degree stays in the context");
        assertTrue(poly(o, 3).r2() > poly(o, 1).r2(), "a cubic fits 1/b better than a line");
        assertEquals("test hook", o.entry().context().fabric());
        assertEquals("measured", o.entry().context().source());
        Path png = dir.resolve("t.png");
        CurvePlot.write(png, "t", o.entry().samples(), o.selection());
        byte[] head = Arrays.copyOf(Files.readAllBytes(png), 4);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, head);
        assertTrue(progress.stream().anyMatch(l -> l.startsWith("t at  10.0 % rep 1: 11.000 s")), progress.toString());
    }

    private static FittedModel poly(Profiler.Outcome o, int degree) {
        return o.selection().candidates().stream().filter(f -> f.family() == ModelFamily.POLY && f.degree() == degree)
                .findFirst().orElseThrow();
    }

    @Test
    void failedAndTimedOutRunsAreJournaledButNeverSamples(@TempDir Path dir) throws Exception {
        // fails at 25 %, hangs at 10 % (killed after 2 s)
        String extra = "[ \"$l\" = 25 ] && { echo 'boom: out of memory' >&2; exit 3; }; [ \"$l\" = 10 ] && sleep 30;";
        CommandWorkload w = new CommandWorkload(workload(dir, extra).command(), Map.of(), Duration.ofSeconds(2));
        Profiler.Outcome o = new Profiler(hook(dir), s -> { }).profile("t", w, LEVELS, 1, ModelChoice.paper(1),
                new RunJournal(dir.resolve("runs.csv")), dir, ProfilingContext.UNKNOWN);
        assertEquals(List.of(RunRecord.Outcome.COMPLETED, RunRecord.Outcome.COMPLETED, RunRecord.Outcome.FAILED,
                RunRecord.Outcome.TIMED_OUT), o.runs().stream().map(RunRecord::outcome).toList());
        assertTrue(o.runs().get(2).detail().startsWith("exit 3: boom: out of memory"), o.runs().get(2).detail());
        assertEquals(List.of(100.0, 50.0), o.entry().samples().stream().map(Sample::bandwidthPercent).toList());
        List<String> journal = Files.readAllLines(dir.resolve("runs.csv"));
        assertEquals(RunJournal.HEADER, journal.get(0));
        assertTrue(journal.get(3).startsWith("25,0,FAILED,,exit 3"), journal.get(3));
        assertTrue(journal.get(4).startsWith("10,0,TIMED_OUT,,killed after 2 s"), journal.get(4));
        // a degree the completed levels cannot support is refused, naming the shortfall
        assertThrows(IllegalStateException.class, () -> new Profiler(hook(dir), s -> { }).fit("t", o.runs(),
                ModelChoice.paper(2), ProfilingContext.UNKNOWN));
    }

    @Test
    void aRunWhoseExecutorsSharedOneWorkerIsRunAgainAndNeverSampled(@TempDir Path dir) throws Exception {
        // the placement check reads the runs so far: the first run of each level is misplaced, and at 10 % every run
        List<String> progress = new ArrayList<>();
        int[] asked = {0};
        Profiler.Placement firstOfEachLevel = () -> {
            asked[0]++;
            String rate = Files.readString(dir.resolve("rate")).strip();
            long runsAtRate = Files.readAllLines(dir.resolve("rates.seen")).stream().filter(rate::equals).count();
            return rate.equals("10") || runsAtRate == 1 ? "its 2 executors all ran on 10.85.0.3 of 2 workers" : null;
        };
        CommandWorkload w = workload(dir, "cat " + dir.resolve("rate") + " >> " + dir.resolve("rates.seen") + ";");
        Profiler.Outcome o = new Profiler(hook(dir), TrafficRecorder.NONE, Competition.NONE, firstOfEachLevel,
                progress::add).profile("t", w, LEVELS, 1, ModelChoice.paper(1),
                new RunJournal(dir.resolve("t/runs.csv")), dir.resolve("t"), ProfilingContext.UNKNOWN);
        assertEquals(2 + 2 + 2 + Profiler.PLACEMENT_TRIES, count(dir), "once more at 100, 50 and 25 %; 10 % gives up");
        assertEquals(count(dir), asked[0]);
        assertEquals(3, o.entry().samples().size(), "the misplaced runs are no samples");
        RunRecord tenPercent = o.runs().stream().filter(r -> r.bandwidthPercent() == 10).findFirst().orElseThrow();
        assertEquals(RunRecord.Outcome.FAILED, tenPercent.outcome());
        assertEquals("its 2 executors all ran on 10.85.0.3 of 2 workers (3 tries)", tenPercent.detail());
        assertTrue(progress.contains("t at 100.0 % rep 0: its 2 executors all ran on 10.85.0.3 of 2 workers; running "
                + "it again"), progress.toString());
    }

    @Test
    void anInterruptedProfileResumesWithoutRepeatingRuns(@TempDir Path dir) throws Exception {
        RunJournal journal = new RunJournal(dir.resolve("runs.csv"));
        // the hook breaks at the third level (an operator's script failing, or ^C): the profile stops there
        RateLimiter flaky = new RateLimiter() {
            int calls;

            public void apply(double percent) {
                if (++calls == 3) {
                    throw new IllegalStateException("rate hook failed at " + percent + " %");
                }
                hook(dir).apply(percent);
            }

            public void reset() {
            }

            public String fabric() {
                return "flaky";
            }
        };
        assertThrows(IllegalStateException.class, () -> new Profiler(flaky, s -> { }).profile("t", workload(dir, ""),
                LEVELS, 1, ModelChoice.paper(1), journal, dir, ProfilingContext.UNKNOWN));
        assertEquals(2, journal.read().size());
        assertEquals(2, count(dir));
        Profiler.Outcome o = new Profiler(hook(dir), s -> { }).profile("t", workload(dir, ""), LEVELS, 1,
                ModelChoice.paper(1), journal, dir, ProfilingContext.UNKNOWN);
        assertEquals(4, o.runs().size());
        assertEquals(4, count(dir), "the two journaled runs are not repeated");
        assertEquals(List.of(100.0, 50.0, 25.0, 10.0), journal.read().stream().map(RunRecord::bandwidthPercent).toList());
    }

    @Test
    void levelsMustIncludeTheBaselineAndAFailingHookNamesItself(@TempDir Path dir) {
        assertEquals("bandwidth levels [5.0, 50.0] must include 100 (the baseline)",
                assertThrows(IllegalArgumentException.class, () -> Profiler.parseLevels("5,50")).getMessage());
        assertEquals("--levels: 'x' is not a number",
                assertThrows(IllegalArgumentException.class, () -> Profiler.parseLevels("x,100")).getMessage());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CommandHookRateLimiter("echo no such NIC; exit 4", null, Duration.ofSeconds(5)).apply(50));
        assertEquals("rate hook failed at 50 % (exit 4): echo no such NIC; exit 4: no such NIC", e.getMessage());
    }
}
