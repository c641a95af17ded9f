package io.saba.profiler;

import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelFamily;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.ModelSelector;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.TableEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Profiles one workload: for each repetition, every bandwidth level (highest first, so a drifting machine shows
 * up as spread at every level rather than as a slope), set the limit, run, journal the run. Then slowdowns
 * against the median time at 100 %, every model family and degree fitted and one chosen by cross-validation
 * ({@link ModelSelector}), and the table entry with its candidates and the paper's R² of every degree in its
 * context.
 */
public final class Profiler {
    /** The paper's levels (§4.1). */
    public static final List<Double> DEFAULT_LEVELS = List.of(5.0, 10.0, 25.0, 50.0, 75.0, 90.0, 100.0);

    private final RateLimiter limiter;
    private final TrafficRecorder recorder;
    private final Competition competition;
    private final Placement placement;
    private final Consumer<String> progress;

    public Profiler(RateLimiter limiter, Consumer<String> progress) {
        this(limiter, TrafficRecorder.NONE, progress);
    }

    /** @param recorder records each full-rate run's traffic beside its log (for the co-run predictor) */
    public Profiler(RateLimiter limiter, TrafficRecorder recorder, Consumer<String> progress) {
        this(limiter, recorder, Competition.NONE, progress);
    }

    /**
     * @param limiter     sets each level: a cap (the paper's method) or weights beside a competitor (corun)
     * @param competition what runs beside each run (a competitor for the corun method, else nothing)
     */
    public Profiler(RateLimiter limiter, TrafficRecorder recorder, Competition competition,
                    Consumer<String> progress) {
        this(limiter, recorder, competition, Placement.ANYWHERE, progress);
    }

    /** @param placement asked after every completed run whether its executors were where its shuffle crosses links */
    public Profiler(RateLimiter limiter, TrafficRecorder recorder, Competition competition, Placement placement,
                    Consumer<String> progress) {
        this.limiter = limiter;
        this.recorder = recorder;
        this.competition = competition;
        this.placement = placement;
        this.progress = progress;
    }

    /**
     * Whether the run that just completed ran where a profile can use it: on a Spark cluster, executors spread over
     * the workers, since a shuffle between executors of one worker never meets the limit ({@link SparkMasterLog}).
     */
    @FunctionalInterface
    public interface Placement {
        /** Anything goes (a command the profiler cannot see inside). */
        Placement ANYWHERE = () -> null;

        /** Why the last run cannot be a sample, or null. */
        String problem() throws IOException;
    }

    /** Runs of one slot that a misplaced run is tried again, in all, before the slot is journaled as failed. */
    static final int PLACEMENT_TRIES = 3;

    /**
     * What profiling one workload produced.
     *
     * @param traffic the traffic record of the median full-rate run, or null when none was recorded
     */
    public record Outcome(String workload, List<RunRecord> runs, ModelSelection selection, TableEntry entry,
                          TrafficRecord traffic) {
    }

    /**
     * Runs what the journal lacks, then fits. The limiter is reset to 100 % afterwards, also on failure.
     *
     * @param levels  bandwidth levels in %; must include 100 (the baseline of every slowdown)
     * @param logDir  where each run's output goes (NAME-b{level}-r{rep}.log)
     * @param context nodes, dataset, machine and settings; date, fabric and source are filled here
     */
    public Outcome profile(String workload, CommandWorkload command, List<Double> levels, int repeats,
                           ModelChoice choice, RunJournal journal, Path logDir, ProfilingContext context) throws IOException {
        checkLevels(levels);
        if (repeats < 1) {
            throw new IllegalArgumentException("repetitions must be >= 1, got " + repeats);
        }
        List<RunRecord> runs = new ArrayList<>(journal.read());
        Set<String> done = new HashSet<>();
        runs.forEach(r -> done.add(slot(r.bandwidthPercent(), r.repetition())));
        if (!runs.isEmpty()) {
            progress.accept(String.format(Locale.ROOT, "%s: resuming, %d runs already in %s", workload, runs.size(),
                    journal.file()));
        }
        List<Double> order = new ArrayList<>(levels);
        order.sort((a, b) -> Double.compare(b, a));
        try {
            for (int rep = 0; rep < repeats; rep++) {
                for (double level : order) {
                    if (done.contains(slot(level, rep))) {
                        continue;
                    }
                    limiter.apply(level);
                    String name = String.format(Locale.ROOT, "%s-b%s-r%d.log", workload,
                            CommandHookRateLimiter.number(level), rep);
                    RunRecord r = placed(workload, command, level, rep, logDir.resolve(name));
                    journal.append(r);
                    runs.add(r);
                    progress.accept(String.format(Locale.ROOT, "%s at %5.1f %% rep %d: %s", workload, level, rep,
                            r.completed() ? String.format(Locale.ROOT, "%.3f s", r.seconds())
                                    : r.outcome() + " " + r.detail()));
                }
            }
        } finally {
            limiter.reset();
        }
        Outcome o = fit(workload, runs, choice, context);
        return new Outcome(o.workload(), o.runs(), o.selection(), o.entry(), medianTraffic(runs, workload, logDir));
    }

    /**
     * {@link #run} until the run is where {@link Placement} wants it, at most {@link #PLACEMENT_TRIES} times; a slot
     * that never is is a failed run, so a misplaced run never becomes a sample.
     */
    private RunRecord placed(String workload, CommandWorkload command, double level, int rep, Path log)
            throws IOException {
        for (int attempt = 1; ; attempt++) {
            RunRecord r = run(command, level, rep, log);
            String problem = r.completed() ? placement.problem() : null;
            if (problem == null) {
                return r;
            }
            if (attempt == PLACEMENT_TRIES) {
                return RunRecord.failed(level, rep, RunRecord.Outcome.FAILED, problem + " (" + attempt + " tries)");
            }
            progress.accept(String.format(Locale.ROOT, "%s at %5.1f %% rep %d: %s; running it again", workload, level,
                    rep, problem));
        }
    }

    /**
     * Runs once beside what the competition puts there (a run it spoils is journaled as failed, never sampled); at
     * full rate, records its traffic beside the log.
     */
    private RunRecord run(CommandWorkload command, double level, int rep, Path log) throws IOException {
        RunRecord r;
        try (Competition.Running beside = competition.start(level, rep, log)) {
            r = runAlone(command, level, rep, log);
            String spoiled = beside.stop();
            if (r.completed() && spoiled != null) {
                return RunRecord.failed(level, rep, RunRecord.Outcome.FAILED, spoiled);
            }
        }
        return r;
    }

    private RunRecord runAlone(CommandWorkload command, double level, int rep, Path log) throws IOException {
        if (level != SlowdownSamples.FULL_RATE || recorder == TrafficRecorder.NONE) {
            return command.run(level, rep, log);
        }
        try (TrafficRecorder.Recording rec = recorder.start()) {
            RunRecord r = command.run(level, rep, log);
            OptionalLong started = CommandWorkload.startedMillis(log);
            if (r.completed() && started.isPresent()) {
                TrafficRecord t = rec.stop(started.getAsLong(), r.seconds());
                if (t != null) {
                    TrafficRecordFile.write(TrafficRecordFile.besideLog(log), t);
                }
            }
            return r;
        }
    }

    /** The traffic record of the full-rate run with the median time, among those that have one. */
    static TrafficRecord medianTraffic(List<RunRecord> runs, String workload, Path logDir) throws IOException {
        List<RunRecord> full = new ArrayList<>();
        for (RunRecord r : runs) {
            if (r.completed() && r.bandwidthPercent() == SlowdownSamples.FULL_RATE
                    && Files.exists(trafficFile(logDir, workload, r.repetition()))) {
                full.add(r);
            }
        }
        if (full.isEmpty()) {
            return null;
        }
        full.sort(java.util.Comparator.comparingDouble(RunRecord::seconds));
        return TrafficRecordFile.read(trafficFile(logDir, workload, full.get((full.size() - 1) / 2).repetition()));
    }

    private static Path trafficFile(Path logDir, String workload, int rep) {
        return TrafficRecordFile.besideLog(logDir.resolve(String.format(Locale.ROOT, "%s-b%s-r%d.log", workload,
                CommandHookRateLimiter.number(SlowdownSamples.FULL_RATE), rep)));
    }

    /** Slowdowns and fits from recorded runs (also used to refit a journal without re-running). */
    public Outcome fit(String workload, List<RunRecord> runs, ModelChoice choice, ProfilingContext context) {
        List<Sample> samples = SlowdownSamples.of(runs);
        ModelSelection selection;
        try {
            selection = ModelSelector.select(samples, choice);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(workload + ": the completed runs cannot be fitted: " + e.getMessage(), e);
        }
        Map<Integer, Double> r2 = new TreeMap<>();
        for (FittedModel f : selection.candidates()) {
            if (f.family() == ModelFamily.POLY) {
                r2.put(f.degree(), f.r2());
            }
        }
        ProfilingContext ctx = new ProfilingContext(context.nodes(), context.datasetSize(),
                context.date() != null ? context.date() : java.time.LocalDate.now().toString(),
                context.fabric() != null ? context.fabric() : limiter.fabric(),
                context.source() != null ? context.source() : "measured", context.machine(), context.settings(), r2,
                context.method());
        return new Outcome(workload, List.copyOf(runs), selection, TableEntry.of(workload, selection, ctx), null);
    }

    static void checkLevels(List<Double> levels) {
        if (levels.isEmpty() || !levels.contains(SlowdownSamples.FULL_RATE)) {
            throw new IllegalArgumentException("bandwidth levels " + levels + " must include 100 (the baseline)");
        }
        for (double l : levels) {
            if (!(l > 0 && l <= 100)) {
                throw new IllegalArgumentException("bandwidth level " + l + " is outside (0, 100]");
            }
        }
    }

    /** Parses "5,10,25" into levels. */
    public static List<Double> parseLevels(String csv) {
        List<Double> out = new ArrayList<>();
        for (String s : csv.split(",")) {
            try {
                out.add(Double.parseDouble(s.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--levels: '" + s.trim() + "' is not a number");
            }
        }
        checkLevels(out);
        return out;
    }

    private static String slot(double level, int rep) {
        return level + "/" + rep;
    }
}
