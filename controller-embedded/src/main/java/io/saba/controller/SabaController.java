package io.saba.controller;

import io.saba.controller.alloc.AllocationEngine;
import io.saba.controller.alloc.Recomputer;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.journal.Journal;
import io.saba.controller.state.AppRecord;
import io.saba.controller.state.AppView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.ControllerState;
import io.saba.controller.state.Mutation;
import io.saba.controller.table.ModelCatalog;
import io.saba.controller.topology.PathResolver;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller: the single owner of the cluster picture. Every request is checked, journaled and applied under
 * one lock (microseconds), then acknowledged; allocation happens on the {@link Recomputer}'s thread from
 * snapshots, so request latency does not depend on allocation cost.
 *
 * <p>Transport-agnostic: the gRPC service, the status page and tests all call these methods. {@code tenant} is the
 * authenticated caller ("" with authentication off); an application belongs to the tenant that registered it.
 */
public final class SabaController implements ControllerApi, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SabaController.class);
    private static final String TABLE_FILE = "table.json";

    private final Object lock = new Object();
    private final ControllerState state;
    private final Recomputer recomputer;
    private final FabricBackend backend;
    private final Journal journal;
    private final Path journalDir;
    private final Function<String, ModelCatalog> tableParser;
    private final PathResolver resolver;
    private final AllocationEngine engine;
    private final Metrics metrics;
    private final long leaseNanos;
    private final long compactAfter;
    private final ScheduledExecutorService reaper;

    /** The result of a registration. */
    public record Registration(int level, long leaseMillis, boolean workloadKnown) {
    }

    /** The result of a batch: changes applied, events skipped with the first reason, unknown applications. */
    public record BatchResult(int applied, int rejected, String firstRejection, Set<String> unknownApps) {
    }

    /** A consistent picture for status pages. */
    public record StatusView(List<AppView> apps, Map<PortId, PortAllocation> ports, long version, String backend,
                             long connections) {
    }

    /**
     * @param journalDir  where the journal and the last reloaded table live; null for a memory-only controller
     * @param tableParser parses a sensitivity table (JSON) for {@link #reloadTable}
     */
    public SabaController(PathResolver resolver, AllocationEngine engine, ModelCatalog catalog,
                          FabricBackend backend, Path journalDir, Journal journal,
                          Function<String, ModelCatalog> tableParser, Duration leaseTimeout, Metrics metrics,
                          Duration minRoundInterval) {
        this.resolver = resolver;
        this.engine = engine;
        this.backend = backend;
        this.journal = journal;
        this.journalDir = journalDir;
        this.tableParser = tableParser;
        this.metrics = metrics;
        this.leaseNanos = leaseTimeout.toNanos();
        this.compactAfter = 1_000_000;
        this.recomputer = new Recomputer(engine, backend, metrics, resolver::queues, minRoundInterval);
        ModelCatalog startCatalog = savedTable().orElse(catalog);
        this.state = new ControllerState(resolver, engine, startCatalog, recomputer);
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "saba-lease-reaper");
            t.setDaemon(true);
            return t;
        });
        metrics.gauge("saba_applications", () -> appCount());
        metrics.gauge("saba_connections", () -> connectionCount());
        metrics.gauge("saba_ports_configured", () -> recomputer.current().size());
    }

    /** Replays the journal, compacts it, gives every restored application a fresh lease, starts the threads. */
    public SabaController start() {
        start(true);
        return this;
    }

    /**
     * Starts as one replica of a controller group, whose members apply the same shared log in the same order: no
     * lease reaper (the group's leader decides expiries and logs them) and no level planning of its own (the
     * leader logs plans, {@link #installPlan} applies them). Expects no journal: the shared log is the record.
     */
    public SabaController startAsReplica() {
        synchronized (lock) {
            state.planElsewhere();
        }
        start(false);
        return this;
    }

    private void start(boolean reapLeases) {
        resolver.onPathsChanged(this::pathsChanged);
        synchronized (lock) {
            if (journal != null) {
                List<Mutation> log = journal.replay();
                long now = System.nanoTime();
                for (Mutation m : log) {
                    state.apply(m, now, leaseNanos);
                }
                journal.compact(state.asMutations());
                if (!log.isEmpty()) {
                    LOG.info("restored {} applications and {} connections from {} journal records",
                            state.appCount(), state.connectionCount(), log.size());
                }
            }
            state.renewAll(System.nanoTime() + leaseNanos);
        }
        recomputer.start(this::snapshot);
        if (reapLeases) {
            long period = Math.max(10, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(leaseNanos) / 4));
            reaper.scheduleWithFixedDelay(this::expireLeases, period, period, TimeUnit.MILLISECONDS);
        }
    }

    // ---- requests ----

    @Override
    public Registration register(String tenant, Mutation.Register r) {
        synchronized (lock) {
            commit(r, tenant);
            AppRecord app = state.app(r.appId());
            metrics.registrations.increment();
            return new Registration(app.level(), TimeUnit.NANOSECONDS.toMillis(leaseNanos), app.workloadKnown());
        }
    }

    /** Renews the lease; returns the current level. */
    @Override
    public Registration heartbeat(String tenant, String appId) {
        synchronized (lock) {
            AppRecord app = state.app(appId);
            if (app == null) {
                metrics.requestsRejected.increment();
                throw ControllerException.notFound("application " + appId
                        + " is not registered (never registered, deregistered, or its lease expired); register again");
            }
            if (!app.tenant().equals(tenant)) {
                metrics.requestsRejected.increment();
                throw ControllerException.denied("application " + appId + " belongs to another tenant");
            }
            state.renew(appId, System.nanoTime() + leaseNanos);
            return new Registration(app.level(), TimeUnit.NANOSECONDS.toMillis(leaseNanos), app.workloadKnown());
        }
    }

    @Override
    public boolean deregister(String tenant, String appId) {
        synchronized (lock) {
            boolean was = commit(new Mutation.Deregister(appId, "deregistered"), tenant) > 0;
            if (was) {
                metrics.deregistrations.increment();
            }
            return was;
        }
    }

    /** One connection event or sync; returns 1 if it changed state. */
    @Override
    public int connectionEvent(String tenant, Mutation m) {
        synchronized (lock) {
            metrics.connectionEvents.increment();
            int n = commit(m, tenant);
            metrics.connectionEventsApplied.add(n);
            return n;
        }
    }

    /** Applies valid events in order and skips invalid ones (see the proto's ReportConnections). */
    @Override
    public BatchResult batch(String tenant, List<Mutation> events) {
        int applied = 0;
        int rejected = 0;
        String first = "";
        Set<String> unknown = new LinkedHashSet<>();
        synchronized (lock) {
            long now = System.nanoTime();
            for (Mutation m : events) {
                metrics.connectionEvents.increment();
                try {
                    state.check(m, tenant);
                } catch (ControllerException e) {
                    rejected++;
                    metrics.requestsRejected.increment();
                    if (e.kind() == ControllerException.Kind.NOT_FOUND) {
                        unknown.add(m.appId());
                    }
                    if (first.isEmpty()) {
                        first = e.getMessage();
                    }
                    continue;
                }
                if (journal != null) {
                    journal.append(m);
                }
                applied += state.apply(m, now, leaseNanos);
            }
            afterCommit();
            metrics.connectionEventsApplied.add(applied);
        }
        return new BatchResult(applied, rejected, first, unknown);
    }

    private int commit(Mutation m, String tenant) {
        try {
            state.check(m, tenant);
        } catch (ControllerException e) {
            metrics.requestsRejected.increment();
            throw e;
        }
        if (journal != null) {
            journal.append(m);
        }
        int n = state.apply(m, System.nanoTime(), leaseNanos);
        afterCommit();
        return n;
    }

    private void afterCommit() {
        if (journal != null) {
            journal.commit();
            if (journal.appendsSinceCompaction() > Math.max(compactAfter, 4 * state.connectionCount())) {
                journal.compact(state.asMutations());
            }
        }
    }

    private void expireLeases() {
        try {
            synchronized (lock) {
                for (String appId : state.expired(System.nanoTime())) {
                    Mutation m = new Mutation.Deregister(appId, "lease expired");
                    if (journal != null) {
                        journal.append(m);
                    }
                    state.apply(m, System.nanoTime(), leaseNanos);
                    metrics.leaseExpirations.increment();
                    LOG.info("application {} lost its registration: no heartbeat within its lease", appId);
                }
                afterCommit();
            }
        } catch (RuntimeException e) {
            LOG.error("lease expiry failed", e);
        }
    }

    /** The fabric re-routed: every open connection is resolved again and the ports whose users changed recomputed. */
    public void pathsChanged() {
        int moved;
        synchronized (lock) {
            moved = state.reroute();
        }
        LOG.info("fabric paths changed: {} connections moved to other ports", moved);
    }

    // ---- sensitivity table ----

    /**
     * Replaces the sensitivity table without a restart; the JSON is kept beside the journal so a restart uses it.
     *
     * @param json the table, or null/blank to reread nothing (callers resolve "the configured file" first)
     * @return workloads in the new table
     */
    @Override
    public int reloadTable(String json) {
        ModelCatalog catalog = tableParser.apply(json);
        synchronized (lock) {
            if (journalDir != null) {
                saveTable(json);
            }
            state.setCatalog(catalog);
        }
        metrics.tableReloads.increment();
        LOG.info("sensitivity table reloaded: {} workloads", catalog.size());
        return catalog.size();
    }

    private java.util.Optional<ModelCatalog> savedTable() {
        if (journalDir == null || !Files.exists(journalDir.resolve(TABLE_FILE))) {
            return java.util.Optional.empty();
        }
        try {
            String json = Files.readString(journalDir.resolve(TABLE_FILE));
            LOG.info("using the sensitivity table last reloaded at run time ({})", journalDir.resolve(TABLE_FILE));
            return java.util.Optional.of(tableParser.apply(json));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + journalDir.resolve(TABLE_FILE), e);
        }
    }

    private void saveTable(String json) {
        try {
            Files.createDirectories(journalDir);
            Path tmp = journalDir.resolve(TABLE_FILE + ".tmp");
            Files.writeString(tmp, json, StandardCharsets.UTF_8);
            Files.move(tmp, journalDir.resolve(TABLE_FILE), StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the sensitivity table in " + journalDir, e);
        }
    }

    // ---- for a controller group (see startAsReplica) ----

    /** Adopts the level plan a group's leader computed. */
    public void installPlan(io.saba.controller.alloc.LevelPlan plan) {
        synchronized (lock) {
            state.installPlan(plan);
        }
    }

    /** Replaces the sensitivity table (a group member applying the table its shared log carries). */
    public void installTable(ModelCatalog catalog) {
        synchronized (lock) {
            state.setCatalog(catalog);
        }
    }

    /** How long an application keeps its registration without a heartbeat. */
    public long leaseMillis() {
        return TimeUnit.NANOSECONDS.toMillis(leaseNanos);
    }

    public AllocationEngine engine() {
        return engine;
    }

    /** The current level plan. */
    public io.saba.controller.alloc.LevelPlan plan() {
        synchronized (lock) {
            return state.plan();
        }
    }

    /** The model of every workload some application runs (what the group's leader plans levels from). */
    public Map<String, io.saba.core.model.SensitivityModel> workloadModels() {
        synchronized (lock) {
            return state.workloadModels();
        }
    }

    /** Applications whose lease ran out, with their tenants (the group's leader logs their removal). */
    public Map<String, String> expiredApplications() {
        synchronized (lock) {
            Map<String, String> out = new java.util.LinkedHashMap<>();
            for (String id : state.expired(System.nanoTime())) {
                out.put(id, state.app(id).tenant());
            }
            return out;
        }
    }

    /** Mutations that rebuild the applications and connections from nothing (a group's snapshot). */
    public List<Mutation> stateAsMutations() {
        synchronized (lock) {
            return state.asMutations();
        }
    }

    /**
     * Pushes these ports' configurations whatever was pushed before, and releases the idle ones: what a group
     * member does for a switch it has just taken over, which another member (or nobody) last programmed.
     */
    public void repush(java.util.Collection<PortId> ports) {
        recomputer.retake(ports);
    }

    // ---- reads ----

    private Recomputer.Snapshot snapshot(Set<PortId> ports) {
        synchronized (lock) {
            Map<PortId, List<AllocationEngine.AppAtPort>> at = new HashMap<>();
            for (PortId p : ports) {
                at.put(p, state.appsAt(p));
            }
            return new Recomputer.Snapshot(state.plan(), at);
        }
    }

    @Override
    public StatusView status(boolean withConnections) {
        List<AppView> apps;
        long conns;
        synchronized (lock) {
            apps = state.views(withConnections, System.nanoTime());
            conns = state.connectionCount();
        }
        return new StatusView(apps, new java.util.TreeMap<>(recomputer.current()), recomputer.version(),
                backend.name(), conns);
    }

    public AppView app(String appId) {
        synchronized (lock) {
            for (AppView v : state.views(true, System.nanoTime())) {
                if (v.appId().equals(appId)) {
                    return v;
                }
            }
            return null;
        }
    }

    public int appCount() {
        synchronized (lock) {
            return state.appCount();
        }
    }

    public long connectionCount() {
        synchronized (lock) {
            return state.connectionCount();
        }
    }

    /** The sensitivity table in force (immutable; readable without the lock). */
    public ModelCatalog catalog() {
        return state.catalog();
    }

    public List<String> workloads() {
        synchronized (lock) {
            return new ArrayList<>(state.catalog().models().keySet());
        }
    }

    @Override
    public void addWatcher(java.util.function.Consumer<io.saba.controller.alloc.AllocationChange> w) {
        recomputer.addWatcher(w);
    }

    @Override
    public void removeWatcher(java.util.function.Consumer<io.saba.controller.alloc.AllocationChange> w) {
        recomputer.removeWatcher(w);
    }

    public Recomputer recomputer() {
        return recomputer;
    }

    @Override
    public Metrics metrics() {
        return metrics;
    }

    public PathResolver resolver() {
        return resolver;
    }

    public FabricBackend backend() {
        return backend;
    }

    /**
     * Waits until every change made so far has been pushed (for tests and the benchmark; never on a request path).
     *
     * @return false on timeout
     */
    public boolean awaitQuiescent(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            long rounds = recomputer.rounds();
            if (recomputer.idle()) {
                Thread.sleep(5);
                if (recomputer.idle() && recomputer.rounds() == rounds) {
                    return true;
                }
            }
            Thread.sleep(2);
        }
        return false;
    }

    @Override
    public void close() {
        reaper.shutdownNow();
        recomputer.close();
        synchronized (lock) {
            if (journal != null) {
                journal.close();
            }
        }
    }
}
