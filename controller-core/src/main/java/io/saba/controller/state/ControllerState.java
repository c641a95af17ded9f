package io.saba.controller.state;

import io.saba.wire.ConnectionKey;
import io.saba.controller.estimate.LearnedModels;
import io.saba.controller.estimate.LearnedWorkload;
import io.saba.controller.estimate.ModelSource;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.RouteUnavailableException;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.PortApps;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.corun.CorunProfile;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import io.saba.core.table.SensitivityTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The controller's picture (applications, connections, the ports they cross) and the rules that change it. Not
 * thread-safe: its replica serialises every call under one lock (each call is microseconds of map updates; the
 * expensive part, allocation, runs elsewhere on snapshots).
 *
 * <p>{@link #check} decides whether a mutation is acceptable and throws a precise {@link ControllerException} if
 * not, without changing anything; {@link #apply} then changes state and never refuses. Replay from the journal
 * calls {@link #apply} alone.
 *
 * <p>Ordering: an event with a sequence number is ignored when the application has seen the same connection
 * with a newer one (so a retried or reordered "opened" cannot resurrect a closed connection). A sync with
 * sequence S replaces the set, except for connections already seen with a sequence above S.
 *
 * <p><b>Connections waiting for a route.</b> A discovered fabric may have no route yet for a connection between
 * hosts it knows (the subnet manager has not assigned LIDs, or is re-routing): the connection is kept open without
 * ports, counted in {@link #unroutedCount}, and given its ports by the {@link #reroute} that follows the fabric's
 * next change. At most {@code unroutedLimit} connections wait; beyond that new ones without a route are refused
 * (never those a restore re-applies: they were acknowledged once).
 *
 * <p><b>Models.</b> An application is allocated with its workload's model in force: the table's (or the default
 * one), or under {@code sensitivity: online|blended} one learnt from the units its workload's applications reported
 * ({@link #observe}, {@link LearnedModels}). A learnt model that changes re-solves the workload's ports.
 *
 * <p><b>Levels.</b> The allocator's {@link LevelMode} says what a level is given to. Per workload, the levels are
 * planned again when a workload arrives or its last application leaves. Per application ({@code level-per:
 * application}), when any application registers (it is answered with a level of its own while one is free) or
 * leaves (its level is free again); the applications running keep the levels they hold, which is what their
 * connections carry. Either way the plan is a function of the requests applied, in order, so a journal's replay
 * plans what the controller planned.
 */
public final class ControllerState implements StateReads {
    private final PathResolver resolver;
    private final Allocator allocator;
    private final PortListener listener;
    /** Immutable; volatile so the allocation engine may read the current one without the controller's lock. */
    private volatile ModelCatalog catalog;
    private final Map<String, AppRecord> apps = new LinkedHashMap<>();
    /** Every port some open connection crosses, with its applications (sorted, counted). */
    private final Map<PortId, PortUsers> ports = new HashMap<>();
    private final Map<String, Integer> appsOfWorkload = new TreeMap<>();
    /** A number per model instance of the table in force (see {@link AppRecord#modelId}); renumbered with the table. */
    private final Map<SensitivityModel, Integer> modelIds = new java.util.IdentityHashMap<>();
    private LevelPlan plan = LevelPlan.none();
    /**
     * Source host → destination host → path: every event would otherwise resolve its path twice (check, then
     * apply). Keyed by the topology's own host names, so a hit hashes no new string. Bounded by {@link #cachedPaths}.
     */
    private final Map<String, Map<String, List<PortId>>> pathCache = new HashMap<>();
    private int cachedPaths;
    /**
     * The connection last routed and its path: an "opened" is routed when checked and again when applied, one
     * after the other under the same lock. Compared by identity; forgotten when the paths are.
     */
    private ConnectionKey routedKey;
    private List<PortId> routedPath;
    private static final int PATH_CACHE_LIMIT = 200_000;
    /** Host pair → why the fabric has no route for it yet; cleared with the paths at every reroute. */
    private final Map<String, String> unroutablePairs = new HashMap<>();
    /** How many connections may wait for a route by default: about 20 MB of keys, far above a subnet's start-up. */
    public static final int UNROUTED_LIMIT = 100_000;
    private final int unroutedLimit;
    private long openConnections;
    private long unroutedConnections;
    /** Why the last connection to start waiting has no route (for the controller's one log line). */
    private String lastUnroutedReason = "";
    /** Connections refused because {@link #unroutedLimit} waited already, since start. */
    private long refusedUnrouted;
    /** False while a restore re-applies acknowledged writes: the limit on waiting connections is for new ones. */
    private boolean limitUnrouted = true;
    /** False in a controller group: its leader plans levels for everyone and {@link #installPlan} applies them. */
    private boolean planLocally = true;
    private final LearnedModels learned;
    /**
     * Applications deregistered lately (appId → workload and tenant), oldest first: the last units of a job can
     * arrive after its deregistration (a Flink TaskManager reports a task when it ends, the JobManager deregisters
     * when the job does), and they still count for the workload. Bounded, and by time.
     */
    private final LinkedHashMap<String, Departed> departed = new LinkedHashMap<>();
    static final int DEPARTED_LIMIT = 4096;
    static final long DEPARTED_NANOS = TimeUnit.MINUTES.toNanos(2);

    /** A deregistered application's workload and tenant, and when it left. */
    public record Departed(String workload, String tenant, long nanos) {
    }

    /** @param allocator plans levels when the workloads change (the ports are allocated by the listener's side) */
    public ControllerState(PathResolver resolver, Allocator allocator, ModelCatalog catalog, PortListener listener) {
        this(resolver, allocator, catalog, listener, UNROUTED_LIMIT);
    }

    /** @param unroutedLimit how many connections may wait for a route at once */
    public ControllerState(PathResolver resolver, Allocator allocator, ModelCatalog catalog, PortListener listener,
                           int unroutedLimit) {
        this(resolver, allocator, catalog, listener, unroutedLimit, SensitivityMode.TABLE);
    }

    /** @param sensitivity which model the allocator uses for a workload */
    public ControllerState(PathResolver resolver, Allocator allocator, ModelCatalog catalog, PortListener listener,
                           int unroutedLimit, SensitivityMode sensitivity) {
        this.resolver = resolver;
        this.allocator = allocator;
        this.catalog = catalog;
        this.listener = listener;
        this.unroutedLimit = unroutedLimit;
        this.learned = new LearnedModels(sensitivity);
    }

    // ---- checks: throw, never change state ----

    /** @param tenant the caller's tenant ("" when authentication is off) */
    public void check(Mutation m, String tenant) {
        AppRecord app = apps.get(m.appId());
        if (app != null && !app.tenant.equals(tenant)) {
            throw ControllerException.denied("application " + m.appId() + " belongs to another tenant");
        }
        if (m instanceof Mutation.Register r) {
            if (app != null && r.attempt() < app.attempt) {
                throw new ControllerException(ControllerException.Kind.FAILED_PRECONDITION, "application "
                        + r.appId() + " attempt " + r.attempt() + " is older than the registered attempt "
                        + app.attempt);
            }
        } else if (m instanceof Mutation.Opened o) {
            requireRegistered(app, m.appId());
            if (route(o.key()) == null && !app.open.containsKey(o.key())) {
                requireRoomToWait(1, o.key());
            }
        } else if (m instanceof Mutation.Closed) {
            requireRegistered(app, m.appId());
        } else if (m instanceof Mutation.Sync s) {
            requireRegistered(app, m.appId());
            int toWait = 0;
            ConnectionKey first = null;
            for (ConnectionKey k : s.open()) {
                if (route(k) == null && !app.open.containsKey(k)) {
                    toWait++;
                    first = first == null ? k : first;
                }
            }
            if (toWait > 0) {
                requireRoomToWait(toWait, first);
            }
        }
        // deregistering an unknown application is harmless: nothing to check
    }

    private static void requireRegistered(AppRecord app, String appId) {
        if (app == null) {
            throw ControllerException.notFound("application " + appId
                    + " is not registered (never registered, deregistered, or its lease expired); register it first");
        }
    }

    /** Refuses {@code n} more connections without a route when the most that may wait already do. */
    private void requireRoomToWait(int n, ConnectionKey first) {
        if (limitUnrouted && unroutedConnections + n > unroutedLimit) {
            refusedUnrouted += n;
            throw new ControllerException(ControllerException.Kind.FAILED_PRECONDITION, "the fabric has no route yet"
                    + " for " + describe(first) + (n > 1 ? " and " + (n - 1) + " more" : "") + ", and "
                    + unroutedConnections + " connections already wait for routes (at most " + unroutedLimit + ")");
        }
    }

    private static String describe(ConnectionKey k) {
        return ConnectionKey.endpoint(k.srcIp(), k.srcPort()) + " -> " + ConnectionKey.endpoint(k.dstIp(), k.dstPort());
    }

    /**
     * The ports a connection crosses, or null when the fabric has no route for it yet but may have one later (see
     * {@link RouteUnavailableException}, {@link PathResolver#mayResolveLater}); {@link #lastUnroutedReason} then
     * says why.
     *
     * @throws ControllerException INVALID_ARGUMENT naming an endpoint no topology host owns (nor may own), or
     *                             FAILED_PRECONDITION when the topology has no path between the hosts
     */
    private List<PortId> route(ConnectionKey k) {
        if (k == routedKey) {
            return routedPath;
        }
        String src = host(k.srcIp(), k.srcPort(), "source");
        String dst = host(k.dstIp(), k.dstPort(), "destination");
        if (src == null || dst == null) {
            lastUnroutedReason = describe(k) + ": " + (src == null ? k.srcIp() : k.dstIp())
                    + " belongs to a host the fabric has not placed yet";
            return null;
        }
        Map<String, List<PortId>> fromSrc = pathCache.get(src);
        List<PortId> path = fromSrc == null ? null : fromSrc.get(dst);
        if (path == null) {
            String pair = src + '\u0000' + dst;
            String unroutable = unroutablePairs.get(pair);
            if (unroutable != null) {
                lastUnroutedReason = describe(k) + " (" + src + " -> " + dst + "): " + unroutable;
                return null;
            }
            try {
                path = List.copyOf(resolver.path(src, dst));
            } catch (RouteUnavailableException e) {
                // routes appear only with a fabric change, which clears this: one walk per pair, not per event
                if (unroutablePairs.size() < PATH_CACHE_LIMIT) {
                    unroutablePairs.put(pair, e.getMessage());
                }
                lastUnroutedReason = describe(k) + " (" + src + " -> " + dst + "): " + e.getMessage();
                return null;
            } catch (IllegalStateException | IllegalArgumentException e) {
                throw new ControllerException(ControllerException.Kind.FAILED_PRECONDITION, "no path from " + src
                        + " to " + dst + ": " + e.getMessage());
            }
            if (cachedPaths >= PATH_CACHE_LIMIT) {
                pathCache.clear();
                cachedPaths = 0;
            }
            pathCache.computeIfAbsent(src, h -> new HashMap<>()).put(dst, path);
            cachedPaths++;
        }
        routedKey = k;
        routedPath = path;
        return path;
    }

    /** The host owning an endpoint's address, or null when it may own it later; INVALID_ARGUMENT otherwise. */
    private String host(String ip, int port, String which) {
        return resolver.hostOf(ip).orElseGet(() -> {
            if (resolver.mayResolveLater(ip)) {
                return null;
            }
            throw ControllerException.invalid(which + " endpoint " + ConnectionKey.endpoint(ip, port)
                    + ": no topology host has address " + ip);
        });
    }

    // ---- apply: change state, never refuse ----

    /**
     * Applies a checked (or replayed) mutation.
     *
     * @return how many things changed (0 for duplicates, stale events and unknown targets)
     */
    public int apply(Mutation m, long nowNanos, long leaseNanos) {
        if (m instanceof Mutation.Register r) {
            return register(r, nowNanos + leaseNanos);
        } else if (m instanceof Mutation.Deregister d) {
            return deregister(d.appId());
        } else if (m instanceof Mutation.Opened o) {
            return opened(o);
        } else if (m instanceof Mutation.Closed c) {
            return closed(c);
        } else {
            return sync((Mutation.Sync) m);
        }
    }

    private int register(Mutation.Register r, long leaseDeadline) {
        AppRecord app = apps.get(r.appId());
        String workloadBefore = app == null ? null : app.workload;
        if (app == null) {
            app = new AppRecord(r.appId(), r.tenant());
            apps.put(r.appId(), app);
        } else {
            if (r.attempt() > app.attempt) {
                // a restarted driver: the old attempt's connections died with it
                dropConnections(app);
                app.lastSeq.clear();
            }
            forgetWorkload(app.workload);
        }
        app.workload = r.workload();
        app.framework = r.framework();
        app.user = r.user();
        app.attempt = Math.max(app.attempt, r.attempt());
        app.leaseDeadlineNanos = leaseDeadline;
        app.workloadKnown = catalog.knows(r.workload());
        app.model = modelOf(r.workload());
        app.modelId = modelId(app.model);
        departed.remove(r.appId());
        boolean newWorkload = appsOfWorkload.merge(r.workload(), 1, Integer::sum) == 1;
        boolean replan = perApplication()
                ? !plan.covers(r.appId(), r.workload()) || !r.workload().equals(workloadBefore)
                : newWorkload || !plan.levelOfWorkload().containsKey(r.workload());
        if (planLocally && replan) {
            replan();
        } else {
            app.level = plan.levelOf(app.appId, app.workload);
        }
        return 1;
    }

    private int deregister(String appId) {
        AppRecord app = apps.remove(appId);
        if (app == null) {
            return 0;
        }
        rememberDeparted(app);
        dropConnections(app);
        if (forgetWorkload(app.workload) || perApplication()) {
            replan();
        }
        return 1;
    }

    private void rememberDeparted(AppRecord app) {
        long now = System.nanoTime();
        departed.put(app.appId, new Departed(app.workload, app.tenant, now));
        Iterator<Departed> oldest = departed.values().iterator();
        while (oldest.hasNext()) {
            Departed d = oldest.next();
            if (departed.size() <= DEPARTED_LIMIT && now - d.nanos() <= DEPARTED_NANOS) {
                break;
            }
            oldest.remove();
        }
    }

    /** A recently deregistered application's workload and tenant, or null (never known, or gone too long). */
    @Override
    public Departed departed(String appId) {
        Departed d = departed.get(appId);
        return d == null || System.nanoTime() - d.nanos() > DEPARTED_NANOS ? null : d;
    }

    /** @return true if no application runs the workload any more */
    private boolean forgetWorkload(String workload) {
        if (workload == null) {
            return false;
        }
        Integer left = appsOfWorkload.computeIfPresent(workload, (w, n) -> n == 1 ? null : n - 1);
        return left == null;
    }

    private int opened(Mutation.Opened o) {
        AppRecord app = apps.get(o.appId());
        if (app == null || stale(app, o.key(), o.seq())) {
            return 0;
        }
        if (app.open.containsKey(o.key())) {
            return 0;
        }
        return addResolved(app, o.key()) ? 1 : 0;
    }

    private int closed(Mutation.Closed c) {
        AppRecord app = apps.get(c.appId());
        if (app == null || stale(app, c.key(), c.seq())) {
            return 0;
        }
        return removeConnection(app, c.key()) ? 1 : 0;
    }

    private int sync(Mutation.Sync s) {
        AppRecord app = apps.get(s.appId());
        if (app == null) {
            return 0;
        }
        int changed = 0;
        Set<ConnectionKey> wanted = new HashSet<>(s.open());
        for (ConnectionKey k : new ArrayList<>(app.open.keySet())) {
            if (!wanted.contains(k) && !newerThan(app, k, s.seq()) && removeConnection(app, k)) {
                changed++;
            }
        }
        for (ConnectionKey k : s.open()) {
            if (!newerThan(app, k, s.seq()) && !app.open.containsKey(k) && addResolved(app, k)) {
                changed++;
            }
        }
        // the sync supersedes everything at or below its sequence: forget those entries (bounds the table)
        app.lastSeq.values().removeIf(seq -> seq <= s.seq());
        return changed;
    }

    /** Records the event's sequence and says whether an event at least as new was already seen. */
    private static boolean stale(AppRecord app, ConnectionKey key, long seq) {
        if (seq <= 0) {
            return false;
        }
        Long seen = app.lastSeq.get(key);
        if (seen != null && seen >= seq) {
            return true;
        }
        app.lastSeq.put(key, seq);
        return false;
    }

    private static boolean newerThan(AppRecord app, ConnectionKey key, long seq) {
        Long seen = app.lastSeq.get(key);
        return seen != null && seen > seq;
    }

    /**
     * Adds a connection with its path, or waiting for one when the fabric has none yet.
     *
     * @return false when the topology refuses it: replayed under a topology that no longer has the host
     */
    private boolean addResolved(AppRecord app, ConnectionKey key) {
        List<PortId> path;
        try {
            path = route(key);
        } catch (ControllerException e) {
            return false;
        }
        if (path == null) {
            addUnrouted(app, key);
        } else {
            addConnection(app, key, path);
        }
        return true;
    }

    /** An open connection without ports: no port is charged for it until a reroute finds its path. */
    private void addUnrouted(AppRecord app, ConnectionKey key) {
        app.open.put(key, List.of());
        app.unrouted.add(key);
        openConnections++;
        unroutedConnections++;
    }

    private void addConnection(AppRecord app, ConnectionKey key, List<PortId> path) {
        app.open.put(key, path);
        openConnections++;
        List<PortId> joined = new ArrayList<>(path.size());
        for (PortId p : path) {
            if (ports.computeIfAbsent(p, x -> new PortUsers()).add(app)) {
                joined.add(p);
            }
        }
        // a port's allocation depends on which applications cross it, not on how many connections each has
        listener.dirty(joined);
    }

    private boolean removeConnection(AppRecord app, ConnectionKey key) {
        List<PortId> path = app.open.remove(key);
        if (path == null) {
            return false;
        }
        openConnections--;
        if (app.unrouted.remove(key)) {
            unroutedConnections--;
            return true;
        }
        List<PortId> left = new ArrayList<>(path.size());
        for (PortId p : path) {
            PortUsers at = ports.get(p);
            if (at != null && at.remove(app)) {
                left.add(p);
                if (at.isEmpty()) {
                    ports.remove(p);
                }
            }
        }
        listener.dirty(left);
        return true;
    }

    /** What a {@link #reroute} did: connections moved to other ports, given their first route, left waiting. */
    public record Rerouted(int moved, int routed, long waiting) {
    }

    /**
     * Resolves every open connection again (after the fabric changed). A connection whose path changed leaves its
     * old ports and joins the new ones; one that waited for a route and has one now joins its ports; one whose
     * route is gone (or whose endpoints no longer resolve) leaves its ports and waits until a route is back.
     */
    public Rerouted reroute() {
        pathCache.clear();
        cachedPaths = 0;
        routedKey = null;
        routedPath = null;
        unroutablePairs.clear();
        int moved = 0;
        int routed = 0;
        for (AppRecord app : apps.values()) {
            for (Map.Entry<ConnectionKey, List<PortId>> e : new ArrayList<>(app.open.entrySet())) {
                ConnectionKey key = e.getKey();
                boolean waited = app.unrouted.contains(key);
                List<PortId> now;
                try {
                    now = route(key);
                } catch (RuntimeException unresolvable) {
                    lastUnroutedReason = describe(key) + ": " + unresolvable.getMessage();
                    now = null;
                }
                if (now == null) {
                    if (!waited) {
                        removeConnection(app, key);
                        addUnrouted(app, key);
                        moved++;
                    }
                } else if (waited || !now.equals(e.getValue())) {
                    removeConnection(app, key);
                    addConnection(app, key, now);
                    if (waited) {
                        routed++;
                    } else {
                        moved++;
                    }
                }
            }
        }
        return new Rerouted(moved, routed, unroutedConnections);
    }

    private void dropConnections(AppRecord app) {
        for (ConnectionKey k : new ArrayList<>(app.open.keySet())) {
            removeConnection(app, k);
        }
    }

    /**
     * Plans levels for the members present (workloads, or applications), running ones keeping theirs (their
     * connections carry them already: see {@code LevelAssigner}); every port in use is recomputed.
     */
    private void replan() {
        if (!planLocally) {
            return; // the group's leader sees the new workload set and logs a plan; installPlan applies it
        }
        installPlan(allocator.planLevels(memberModels(), runningLevels(), uninformedWorkloads(),
                resolver.minQueues()));
    }

    /** Whether levels are given to applications rather than workloads ({@code level-per: application}). */
    public boolean perApplication() {
        return allocator.mode() == LevelMode.APPLICATION;
    }

    /**
     * The levels on the wire, keyed as a new plan's members are: per workload the plan in force; per application
     * each application's level now (whatever kind of plan gave it: a journal written per workload and replayed per
     * application keeps the levels its applications hold).
     */
    public LevelAssignment runningLevels() {
        if (!perApplication()) {
            return plan.levels();
        }
        Map<String, Integer> levelOf = new TreeMap<>();
        for (AppRecord app : apps.values()) {
            if (app.level > 0) {
                levelOf.put(app.appId, app.level);
            }
        }
        return new LevelAssignment(levelOf, Map.of());
    }

    @Override
    public SortedMap<String, SensitivityModel> memberModels() {
        if (!perApplication()) {
            return workloadModels();
        }
        SortedMap<String, SensitivityModel> models = new TreeMap<>();
        for (AppRecord app : apps.values()) {
            models.put(app.appId, app.model);
        }
        return models;
    }

    /**
     * The workloads present that a learning controller ({@code sensitivity: online|blended}) knows nothing of yet:
     * no table entry, no estimate in force. A level plan places each on a level of its own while levels are free
     * ({@code LevelAssigner}), so its queue's byte counts are its own to learn from; under {@code table} nothing learns
     * from them, and there are none.
     */
    public Set<String> uninformedWorkloads() {
        if (learned.mode() == SensitivityMode.TABLE) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        for (String w : appsOfWorkload.keySet()) {
            if (learned.sourceOf(w, catalog) == ModelSource.DEFAULT) {
                out.add(w);
            }
        }
        return out;
    }

    @Override
    public SortedMap<String, SensitivityModel> workloadModels() {
        SortedMap<String, SensitivityModel> models = new TreeMap<>();
        for (String w : appsOfWorkload.keySet()) {
            models.put(w, modelOf(w));
        }
        return models;
    }

    @Override
    public SensitivityModel modelOf(String workload) {
        return learned.modelOf(workload, catalog);
    }

    /** The workload's co-run profile in force (see {@link LearnedModels#profileOf}); safe without the lock. */
    public CorunProfile corunProfileOf(String workload) {
        return learned.profileOf(workload, catalog);
    }

    // ---- learning from the units applications report ----

    /**
     * Adds units of work to their workloads' estimates, in order; a model in force that changes re-solves its
     * applications' ports (and, planned here, the levels: running workloads keep theirs).
     *
     * @return what each unit did (drift flags raised or cleared are the caller's to announce)
     */
    public List<LearnedModels.Outcome> observe(List<WorkloadObservation> units) {
        List<LearnedModels.Outcome> out = new ArrayList<>(units.size());
        Set<String> changed = new HashSet<>();
        for (WorkloadObservation u : units) {
            LearnedModels.Outcome o = learned.observe(u.workload(), u.app(), u.observation(), catalog);
            changed.addAll(o.modelsChanged());
            out.add(o);
        }
        modelsChanged(changed);
        return out;
    }

    /** Replaces what was learnt with a snapshot's (see {@link LearnedModels#restore}). */
    public void restoreLearned(List<LearnedWorkload> snapshot) {
        modelsChanged(learned.restore(snapshot, catalog));
    }

    /** What was learnt, as a snapshot carries it. */
    public List<LearnedWorkload> learned() {
        return learned.snapshot();
    }

    @Override
    public SensitivityMode sensitivity() {
        return learned.mode();
    }

    @Override
    public Map<String, WorkloadEstimateView> estimates() {
        return learned.views(catalog);
    }

    /**
     * The applications of these workloads take their models in force, as do those on the default model when it moved
     * with them (see {@link LearnedModels#defaultModel}); their ports (and levels) are recomputed.
     */
    private void modelsChanged(Set<String> workloads) {
        if (workloads.isEmpty()) {
            return;
        }
        Set<PortId> touched = new HashSet<>();
        boolean running = false;
        for (AppRecord app : apps.values()) {
            SensitivityModel now = modelOf(app.workload);
            if (workloads.contains(SensitivityTable.key(app.workload)) || !now.equals(app.model)) {
                running = true;
                app.model = now;
                app.open.values().forEach(touched::addAll);
            }
        }
        if (running) {
            renumberModels(); // an estimate's update is a new model instance: numbering afresh keeps the ids dense
            replan();
            listener.dirty(List.copyOf(touched));
        }
    }

    /**
     * Stops planning levels here: a controller group's leader plans for every member and each applies the plan at
     * the same point of the shared log ({@link #installPlan}), so members never disagree on levels. Until a plan
     * covers a new workload its applications stay at level 0, the default class.
     */
    public void planElsewhere() {
        planLocally = false;
    }

    /** Adopts a level plan: every application's level follows it and every port in use is recomputed. */
    public void installPlan(LevelPlan newPlan) {
        plan = newPlan;
        for (AppRecord app : apps.values()) {
            app.level = plan.levelOf(app.appId, app.workload);
        }
        // a new clustering can move levels and also the level hierarchy (centroids), which shapes every port's
        // level→queue map: recompute every port in use (re-planning happens only when the workload set changes)
        listener.dirty(List.copyOf(ports.keySet()));
    }

    /** Swaps the sensitivity table: models, levels and every port may change. */
    public void setCatalog(ModelCatalog newCatalog) {
        learned.reconsiderAll(catalog, newCatalog); // a blend's prior is the table's model
        this.catalog = newCatalog;
        for (AppRecord app : apps.values()) {
            app.workloadKnown = catalog.knows(app.workload);
            app.model = modelOf(app.workload);
        }
        renumberModels();
        replan();
        listener.dirty(List.copyOf(ports.keySet()));
    }

    private void renumberModels() {
        modelIds.clear();
        for (AppRecord app : apps.values()) {
            app.modelId = modelId(app.model);
        }
    }

    private int modelId(SensitivityModel model) {
        return modelIds.computeIfAbsent(model, m -> modelIds.size());
    }

    // ---- leases ----

    /** @return false when the application is unknown */
    public boolean renew(String appId, long deadlineNanos) {
        AppRecord app = apps.get(appId);
        if (app == null) {
            return false;
        }
        app.leaseDeadlineNanos = deadlineNanos;
        return true;
    }

    /** Applications whose lease ended before {@code nowNanos}. */
    public List<String> expired(long nowNanos) {
        List<String> out = new ArrayList<>();
        for (AppRecord app : apps.values()) {
            if (nowNanos - app.leaseDeadlineNanos > 0) {
                out.add(app.appId);
            }
        }
        return out;
    }

    /** Gives every application a fresh lease (after a restart, so clients have time to re-sync). */
    public void renewAll(long deadlineNanos) {
        for (AppRecord app : apps.values()) {
            app.leaseDeadlineNanos = deadlineNanos;
        }
    }

    // ---- reads ----

    public AppRecord app(String appId) {
        return apps.get(appId);
    }

    @Override
    public int appCount() {
        return apps.size();
    }

    @Override
    public long connectionCount() {
        return openConnections;
    }

    @Override
    public long unroutedCount() {
        return unroutedConnections;
    }

    /** Why the last connection to start waiting for a route has none, e.g. "switch s1 has no route to LID 0". */
    public String lastUnroutedReason() {
        return lastUnroutedReason;
    }

    /** Connections refused since start because the most that may wait for a route already did. */
    public long refusedUnrouted() {
        return refusedUnrouted;
    }

    /**
     * Whether new connections without a route are held to the limit; a restore turns it off while it re-applies
     * what was acknowledged once.
     */
    public void limitUnrouted(boolean on) {
        limitUnrouted = on;
    }

    @Override
    public LevelPlan plan() {
        return plan;
    }

    public ModelCatalog catalog() {
        return catalog;
    }

    /**
     * The applications crossing a port with their levels and models, in id order (empty when none; applications
     * at level 0, the default class, are left out: see {@link PortUsers#snapshot}). A copy of arrays the state
     * keeps sorted, cheap enough to take under the controller's lock for thousands of ports a round.
     */
    public PortApps appsAt(PortId port) {
        PortUsers at = ports.get(port);
        return at == null ? PortApps.empty() : at.snapshot();
    }

    @Override
    public List<AppView> views(boolean withConnections, long nowNanos) {
        List<AppView> out = new ArrayList<>(apps.size());
        for (AppRecord a : apps.values()) {
            out.add(view(a, withConnections, nowNanos));
        }
        return out;
    }

    @Override
    public AppView view(String appId, long nowNanos) {
        AppRecord a = apps.get(appId);
        return a == null ? null : view(a, true, nowNanos);
    }

    private AppView view(AppRecord a, boolean withConnections, long nowNanos) {
        return new AppView(a.appId, a.workload, a.framework, a.user, a.attempt, a.tenant, a.level, a.workloadKnown,
                learned.sourceOf(a.workload, catalog), a.model, a.open.size(), a.unrouted.size(),
                TimeUnit.NANOSECONDS.toMillis(a.leaseDeadlineNanos - nowNanos),
                withConnections ? List.copyOf(a.open.keySet()) : List.of());
    }

    /** Mutations that rebuild the current state from nothing: what journal compaction writes. */
    public List<Mutation> asMutations() {
        List<Mutation> out = new ArrayList<>();
        for (AppRecord a : apps.values()) {
            out.add(new Mutation.Register(a.appId, a.workload, a.framework, a.user, a.attempt, a.tenant));
            if (!a.open.isEmpty()) {
                out.add(new Mutation.Sync(a.appId, List.copyOf(a.open.keySet()), 0));
            }
        }
        return out;
    }
}
