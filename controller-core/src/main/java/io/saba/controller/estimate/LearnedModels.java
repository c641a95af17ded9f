package io.saba.controller.estimate;

import io.saba.core.corun.CorunProfile;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.Observation;
import io.saba.core.estimate.ObservedRun;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.estimate.WorkloadEstimator;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import io.saba.core.table.SensitivityTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the controller has learnt of each workload from the units its applications reported: the estimator (window
 * and drift flag) and the model it put in force, per workload. Part of the replicated state: it changes only by the
 * observations a log applies, in log order, so every replica of a log (a replay, a group member) puts the same
 * models in force.
 *
 * <p>A model is put in force by the mode: {@link SensitivityMode#ONLINE} the estimate once it rests on
 * {@link #ONLINE_MIN_UNITS} units, {@link SensitivityMode#BLENDED} the table's model (or the default one) updated by
 * the estimate, the prior worth {@link #PROFILED_PRIOR_UNITS} units for a profiled workload and
 * {@link #DEFAULT_PRIOR_UNITS} for an unprofiled one (the default model says nothing about this workload), so the
 * estimate takes over as units accumulate. A new candidate replaces the model in force only when it predicts
 * slowdowns more than {@link #ADOPT_TOLERANCE} apart somewhere on [5 %, 100 %]: each change re-solves the
 * workload's ports and pushes them, so a unit that moves the estimate a little changes nothing.
 *
 * <p>A workload nothing informs (not in the table, no model in force from its units) is allocated with the
 * {@linkplain #defaultModel default model}: under {@code online} and {@code blended} the mean of the models in force
 * of every workload the table or the observations inform, so a newcomer beside learnt workloads is taken as a typical
 * one of them, not as insensitive (the empty table's default, D(b) = 1, would give it the solver's floor on every
 * port it shares with a learnt workload). Under {@code table}, the table's default.
 *
 * <p>With its model, a workload's co-run profile for the co-run predictor ({@code allocation: corun}): where the
 * table has none (or, under {@code online}, in place of the table's), {@link ObservedRun}'s record of the units of
 * one of its applications, the one that reported the most among its last {@link #RUNS} (the most complete run; up to
 * {@link WorkloadEstimator#KEEP} units each), with the model in force's network-bound share. It is rebuilt when the
 * model in force changes, when another application's run becomes the most complete, and when the run it was built
 * from has doubled its units since; not at every unit, as each change re-solves the workload's ports. Built only
 * once a model is in force from the observations.
 *
 * <p>Bounded: at most {@link #MAX_WORKLOADS} workloads, the least recently observed forgotten first. Not
 * thread-safe: the replica calls it under its lock.
 */
public final class LearnedModels {
    public static final int MAX_WORKLOADS = 1024;
    /** Units a profile is worth against observations: a profile is several full runs at several shares. */
    public static final double PROFILED_PRIOR_UNITS = 8;
    /** Units the default model is worth: a start, not knowledge of the workload. */
    public static final double DEFAULT_PRIOR_UNITS = 1;
    /** Units an estimate needs before {@code online} puts it in force alone. */
    public static final int ONLINE_MIN_UNITS = 3;
    /** The relative change of predicted slowdown that puts a new candidate in force. */
    public static final double ADOPT_TOLERANCE = 0.05;
    /** Applications whose units are kept per workload, for its co-run profile. */
    public static final int RUNS = 3;
    /** Shares the change is measured at: the solver's floor up to the full link. */
    private static final double[] GRID = {0.05, 0.1, 0.25, 0.5, 0.75, 1};

    private final SensitivityMode mode;
    /** Least recently observed first. */
    private final LinkedHashMap<String, Learned> byWorkload = new LinkedHashMap<>();
    /** Each workload's learned co-run profile, replaced whole on a change: read without the replica's lock. */
    private volatile Map<String, CorunProfile> profiles = Map.of();
    /** {@link #defaultModel}'s last answer and the table it was computed under; null when a model in force moved. */
    private SensitivityModel defaultModel;
    private ModelCatalog defaultUnder;

    private static final class Learned {
        final WorkloadEstimator estimator;
        SensitivityModel adopted;
        /** Usable units of its last {@link #RUNS} applications, by application, least recently started first. */
        final LinkedHashMap<String, List<Observation>> runs = new LinkedHashMap<>();
        /** The application whose run the profile was built from, and from how many of its units. */
        String profiledApp = "";
        int profiledUnits;
        CorunProfile profile;

        Learned(WorkloadEstimator estimator, SensitivityModel adopted) {
            this.estimator = estimator;
            this.adopted = adopted;
        }

        void add(String app, Observation o) {
            if (app.isEmpty() || !ObservedRun.usable(o)) {
                return;
            }
            List<Observation> run = runs.get(app);
            if (run == null) {
                if (runs.size() == RUNS) {
                    runs.remove(runs.keySet().iterator().next());
                }
                run = new ArrayList<>();
                runs.put(app, run);
            }
            if (run.size() < WorkloadEstimator.KEEP) {
                run.add(o); // a run's first units: a long-running job's record is its first KEEP units
            }
        }

        /** The run with the most units, the latest on a tie; "" for none. */
        String mostComplete() {
            String best = "";
            int most = 0;
            for (Map.Entry<String, List<Observation>> e : runs.entrySet()) {
                if (e.getValue().size() >= most && !e.getValue().isEmpty()) {
                    best = e.getKey();
                    most = e.getValue().size();
                }
            }
            return best;
        }

        /** Builds the profile again where the rule in the class comment says; true when it changed. */
        boolean reprofile(boolean modelChanged) {
            String source = adopted == null ? "" : mostComplete();
            List<Observation> run = runs.getOrDefault(source, List.of());
            if (!modelChanged && source.equals(profiledApp) && run.size() < 2 * profiledUnits) {
                return false;
            }
            return profileFrom(source, run.size());
        }

        /** The profile from the first {@code units} units of {@code app}'s run; true when it changed. */
        boolean profileFrom(String app, int units) {
            List<Observation> run = runs.getOrDefault(app, List.of());
            units = Math.min(units, run.size());
            CorunProfile next = adopted == null || units == 0 ? null
                    : ObservedRun.profile(run.subList(0, units), adopted);
            profiledApp = next == null ? "" : app;
            profiledUnits = next == null ? 0 : units;
            boolean changed = !java.util.Objects.equals(next, profile);
            profile = next;
            return changed;
        }
    }

    /**
     * What one observation did.
     *
     * @param workload      the workload's key
     * @param modelsChanged workloads whose model or co-run profile in force changed (this one, or one forgotten to
     *                      make room): their ports are re-solved
     * @param drift         what it did to the drift flag
     * @param deviation     the estimate against the table now (null for an unprofiled workload)
     * @param estimate      the estimate now
     */
    public record Outcome(String workload, Set<String> modelsChanged, WorkloadEstimator.Change drift,
                          ModelDrift.Deviation deviation, SensitivityEstimate estimate) {
    }

    public LearnedModels(SensitivityMode mode) {
        this.mode = mode;
    }

    public SensitivityMode mode() {
        return mode;
    }

    /**
     * Adds a unit of {@code workload}, reported by application {@code app} ("" when not known), under the table
     * {@code catalog}.
     */
    public Outcome observe(String workload, String app, Observation o, ModelCatalog catalog) {
        String key = SensitivityTable.key(workload);
        Set<String> changed = new HashSet<>();
        boolean profilesChanged = false;
        Learned l = byWorkload.remove(key); // put back last: the most recently observed
        if (l == null) {
            l = new Learned(new WorkloadEstimator(), null);
            if (byWorkload.size() >= MAX_WORKLOADS) {
                String oldest = byWorkload.keySet().iterator().next();
                Learned forgotten = byWorkload.remove(oldest);
                defaultModel = null;
                if (forgotten.adopted != null && mode != SensitivityMode.TABLE) {
                    changed.add(oldest);
                }
                profilesChanged = forgotten.profile != null;
            }
        }
        byWorkload.put(key, l);
        SensitivityModel before = modelOf(key, catalog);
        SensitivityModel table = tableModel(key, catalog);
        WorkloadEstimator.Change drift = l.estimator.add(o, table);
        l.add(app, o);
        SensitivityModel adoptedBefore = l.adopted;
        reconsider(l, key, catalog);
        if (l.adopted != adoptedBefore) {
            defaultModel = null;
        }
        if (l.reprofile(l.adopted != adoptedBefore)) {
            profilesChanged = true;
            changed.add(key);
        }
        if (!before.equals(modelOf(key, catalog))) {
            changed.add(key);
        }
        if (profilesChanged) {
            publishProfiles(); // a copy of every workload's: only when one changed, not at every unit
        }
        return new Outcome(key, changed, drift, l.estimator.deviation(table), l.estimator.estimate());
    }

    /** The model the allocator uses for the workload. */
    public SensitivityModel modelOf(String workload, ModelCatalog catalog) {
        Learned l = byWorkload.get(SensitivityTable.key(workload));
        if (mode != SensitivityMode.TABLE && l != null && l.adopted != null) {
            return l.adopted;
        }
        return catalog.knows(workload) ? catalog.modelOf(workload) : defaultModel(catalog);
    }

    /**
     * The model of a workload nothing informs (see the class comment). Taken in key order, so every replica computes
     * the same one; cached until a model in force or the table changes.
     */
    public SensitivityModel defaultModel(ModelCatalog catalog) {
        if (mode == SensitivityMode.TABLE) {
            return catalog.defaultModel();
        }
        if (defaultModel == null || defaultUnder != catalog) {
            Map<String, SensitivityModel> inForce = new TreeMap<>(catalog.models());
            byWorkload.forEach((key, l) -> {
                if (l.adopted != null) {
                    inForce.put(key, l.adopted);
                }
            });
            defaultModel = inForce.isEmpty() ? SensitivityModel.flat()
                    : SensitivityModel.mean(List.copyOf(inForce.values()));
            defaultUnder = catalog;
        }
        return defaultModel;
    }

    /**
     * The co-run profile the predictor uses for the workload: the table's under {@code table} and {@code blended}
     * (the learned one where the table has none), the learned one under {@code online} (the table's until there is
     * one); null when neither exists. Safe to call without the replica's lock.
     */
    public CorunProfile profileOf(String workload, ModelCatalog catalog) {
        CorunProfile table = catalog.profileOf(workload);
        if (mode == SensitivityMode.TABLE || (mode == SensitivityMode.BLENDED && table != null)) {
            return table;
        }
        CorunProfile learnt = profiles.get(SensitivityTable.key(workload));
        return learnt != null ? learnt : table;
    }

    private void publishProfiles() {
        Map<String, CorunProfile> now = new HashMap<>();
        byWorkload.forEach((key, l) -> {
            if (l.profile != null) {
                now.put(key, l.profile);
            }
        });
        if (!now.equals(profiles)) {
            profiles = Map.copyOf(now);
        }
    }

    /** Where {@link #modelOf} comes from. */
    public ModelSource sourceOf(String workload, ModelCatalog catalog) {
        Learned l = byWorkload.get(SensitivityTable.key(workload));
        if (mode != SensitivityMode.TABLE && l != null && l.adopted != null) {
            return mode == SensitivityMode.ONLINE ? ModelSource.ESTIMATED : ModelSource.BLENDED;
        }
        return catalog.knows(workload) ? ModelSource.PROFILED : ModelSource.DEFAULT;
    }

    /**
     * Weighs every workload's estimate again under a new table (a blend's prior is the table's model).
     *
     * @return workloads whose model in force changed
     */
    public Set<String> reconsiderAll(ModelCatalog before, ModelCatalog after) {
        Set<String> changed = new HashSet<>();
        for (Map.Entry<String, Learned> e : byWorkload.entrySet()) {
            SensitivityModel was = modelOf(e.getKey(), before);
            SensitivityModel adoptedBefore = e.getValue().adopted;
            reconsider(e.getValue(), e.getKey(), after);
            if (e.getValue().adopted != adoptedBefore) {
                defaultModel = null;
            }
            boolean reprofiled = e.getValue().reprofile(e.getValue().adopted != adoptedBefore);
            if (!was.equals(modelOf(e.getKey(), after)) || reprofiled) {
                changed.add(e.getKey());
            }
        }
        publishProfiles();
        return changed;
    }

    /** Puts the mode's candidate in force when it is far enough from the model in force. */
    private void reconsider(Learned l, String key, ModelCatalog catalog) {
        SensitivityModel candidate = candidate(l.estimator.estimate(), key, catalog);
        if (candidate != null && (l.adopted == null || distance(candidate, l.adopted) > ADOPT_TOLERANCE)) {
            l.adopted = candidate;
        }
    }

    private SensitivityModel candidate(SensitivityEstimate e, String key, ModelCatalog catalog) {
        if (e == null) {
            return null;
        }
        return switch (mode) {
            case TABLE -> null;
            case ONLINE -> e.observations() >= ONLINE_MIN_UNITS ? e.model() : null;
            case BLENDED -> e.blendedWith(catalog.modelOf(key),
                    catalog.knows(key) ? PROFILED_PRIOR_UNITS : DEFAULT_PRIOR_UNITS);
        };
    }

    /** The largest relative difference of predicted slowdown between two models on {@link #GRID}. */
    static double distance(SensitivityModel candidate, SensitivityModel current) {
        double worst = 0;
        for (double b : GRID) {
            double now = current.slowdown(b);
            worst = Math.max(worst, Math.abs(candidate.slowdown(b) - now) / Math.max(Math.abs(now), 1e-9));
        }
        return worst;
    }

    private static SensitivityModel tableModel(String key, ModelCatalog catalog) {
        return catalog.knows(key) ? catalog.modelOf(key) : null;
    }

    /** What every workload learnt, for the status pages, by workload. */
    public Map<String, WorkloadEstimateView> views(ModelCatalog catalog) {
        Map<String, WorkloadEstimateView> out = new TreeMap<>();
        byWorkload.forEach((key, l) -> {
            SensitivityModel table = tableModel(key, catalog);
            CorunProfile corun = profileOf(key, catalog);
            out.put(key, new WorkloadEstimateView(key, sourceOf(key, catalog), modelOf(key, catalog),
                    l.estimator.estimate(), table, l.estimator.drifting(), l.estimator.contradicting(),
                    l.estimator.deviation(table), corun, corun != null && corun == l.profile ? l.profiledUnits : 0));
        });
        return out;
    }

    public boolean isEmpty() {
        return byWorkload.isEmpty();
    }

    /** Every workload's state, least recently observed first: what rebuilds this from nothing. */
    public List<LearnedWorkload> snapshot() {
        List<LearnedWorkload> out = new ArrayList<>(byWorkload.size());
        byWorkload.forEach((key, l) -> out.add(new LearnedWorkload(key, l.estimator.window(),
                l.estimator.contradicting(), l.estimator.agreeing(), l.estimator.drifting(), l.adopted, l.runs,
                l.profiledApp, l.profiledUnits)));
        return out;
    }

    /**
     * Replaces everything with a snapshot, then weighs each estimate under this mode and table (a no-op for a
     * snapshot taken under the same mode and table; under another mode, its candidates take over).
     *
     * @return workloads whose model in force changed
     */
    public Set<String> restore(List<LearnedWorkload> snapshot, ModelCatalog catalog) {
        Map<String, SensitivityModel> before = new LinkedHashMap<>();
        byWorkload.keySet().forEach(k -> before.put(k, modelOf(k, catalog)));
        SensitivityModel defaultBefore = defaultModel(catalog);
        byWorkload.clear();
        defaultModel = null;
        Map<String, CorunProfile> profilesBefore = profiles;
        for (LearnedWorkload w : snapshot) {
            Learned l = new Learned(WorkloadEstimator.restore(w.window(), w.contradicting(), w.agreeing(),
                    w.drifting()), w.adopted());
            w.runs().forEach((app, run) -> run.forEach(o -> l.add(app, o)));
            l.profileFrom(w.profiledApp(), w.profiledUnits());
            byWorkload.put(SensitivityTable.key(w.workload()), l);
        }
        Set<String> changed = new HashSet<>();
        for (Map.Entry<String, Learned> e : byWorkload.entrySet()) {
            Learned l = e.getValue();
            SensitivityModel adoptedBefore = l.adopted;
            reconsider(l, e.getKey(), catalog);
            if (l.adopted != adoptedBefore) {
                defaultModel = null;
            }
            l.reprofile(l.adopted != adoptedBefore);
            SensitivityModel was = before.getOrDefault(e.getKey(),
                    catalog.knows(e.getKey()) ? catalog.modelOf(e.getKey()) : defaultBefore);
            if (!modelOf(e.getKey(), catalog).equals(was)
                    || !java.util.Objects.equals(l.profile, profilesBefore.get(e.getKey()))) {
                changed.add(e.getKey());
            }
        }
        publishProfiles();
        profilesBefore.keySet().stream().filter(k -> !byWorkload.containsKey(k)).forEach(changed::add);
        before.keySet().stream().filter(k -> !byWorkload.containsKey(k)
                && !before.get(k).equals(modelOf(k, catalog))).forEach(changed::add);
        return changed;
    }
}
