package io.saba.controller.log;

import io.saba.controller.BatchResult;
import io.saba.controller.ConnectionRejections;
import io.saba.controller.Metrics;
import io.saba.controller.Registration;
import io.saba.controller.alloc.Recomputer;
import io.saba.controller.estimate.LearnedModels;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.state.AppRecord;
import io.saba.controller.state.AppView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.ControllerState;
import io.saba.controller.state.Mutation;
import io.saba.controller.state.PortListener;
import io.saba.controller.state.StateReads;
import io.saba.controller.topology.PathResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortApps;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.corun.CorunProfile;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.WorkloadEstimator;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller's state as its {@link StateLog} builds it: applies the log's requests in log order, each checked and
 * applied under one lock (microseconds of map updates; allocation runs elsewhere on snapshots of it), and answers
 * the reads. Every controller is the replica of its log: alone, of its journal; in a group, of the shared log, which
 * every member applies through this same code.
 *
 * <p>Not a transport's business: the transports call the controller, which turns each write into a
 * {@link LogRequest} for its log.
 */
public final class Replica {
    private static final Logger LOG = LoggerFactory.getLogger(Replica.class);

    private final Object lock = new Object();
    private final ControllerState state;
    private final PathResolver resolver;
    private final Allocator allocator;
    private final Metrics metrics;
    private final long leaseNanos;
    private volatile boolean planLocally = true;
    /** The workload models the installed plan was computed for (a group's leader re-plans when they differ). */
    private volatile SortedMap<String, SensitivityModel> plannedFor = new TreeMap<>();
    /** The table the log carries, or null while it has carried none (the configured one is in use). */
    private volatile LogRequest.Table table;
    /** False while restoring: replayed requests are not requests served. */
    private boolean counting = true;
    private final RouteWaitAnnouncer routeWaits = new RouteWaitAnnouncer();
    /** Per registered application, the connection reports refused as invalid (see {@link #noteRejected}). */
    private final Map<String, ConnectionRejections> rejectedConnections = new ConcurrentHashMap<>();

    /**
     * @param catalog  the sensitivity table to start from (a table the log carries replaces it)
     * @param listener told which ports' allocations may have changed (the controller's allocation loop)
     */
    public Replica(PathResolver resolver, Allocator allocator, ModelCatalog catalog, PortListener listener,
                   Metrics metrics, Duration leaseTimeout) {
        this(resolver, allocator, catalog, listener, metrics, leaseTimeout, SensitivityMode.TABLE);
    }

    /** @param sensitivity which model the allocator uses for a workload (see {@link SensitivityMode}) */
    public Replica(PathResolver resolver, Allocator allocator, ModelCatalog catalog, PortListener listener,
                   Metrics metrics, Duration leaseTimeout, SensitivityMode sensitivity) {
        this.resolver = resolver;
        this.allocator = allocator;
        this.metrics = metrics;
        this.leaseNanos = leaseTimeout.toNanos();
        this.state = new ControllerState(resolver, allocator, catalog, listener, ControllerState.UNROUTED_LIMIT,
                sensitivity);
    }

    /**
     * Stops planning levels here: a group's leader plans for every member and logs the plan, which each replica
     * installs at the same position of the log. Until a plan covers a new workload its applications stay at level
     * 0, the default class.
     */
    public void planElsewhere() {
        synchronized (lock) {
            planLocally = false;
            state.planElsewhere();
        }
    }

    public boolean plansLocally() {
        return planLocally;
    }

    // ---- applying the log ----

    /**
     * Applies one request.
     *
     * @return its outcome: its result, the {@link ControllerException} refusing it (returned, not thrown, so a log
     *         can hand it to whoever waits and carry on), or null for requests without a result
     */
    public Object apply(LogRequest r) {
        synchronized (lock) {
            try {
                return applyOne(r);
            } finally {
                routeWaits.after(state);
            }
        }
    }

    private Object applyOne(LogRequest r) {
        try {
            if (r instanceof LogRequest.Call c) {
                return call(c);
            } else if (r instanceof LogRequest.Renew rn) {
                rn.tenantOfApp().forEach(this::renewQuietly);
            } else if (r instanceof LogRequest.Expire ex) {
                expire(ex.tenantOfApp().keySet());
            } else if (r instanceof LogRequest.Table t) {
                installTable(t);
            } else if (r instanceof LogRequest.Plan p) {
                // installed as the kind of plan it is, so its members' levels hold whatever this replica's mode
                state.installPlan(Allocator.planOf(new LevelAssignment(p.levelOfWorkload(), p.centroids()),
                        resolver.minQueues(), p.mode()));
                plannedFor = p.plannedFor();
            } else if (r instanceof LogRequest.Observed o) {
                learn(o.units());
            } else if (r instanceof LogRequest.Learned l) {
                state.restoreLearned(l.workloads());
            }
            return null;
        } catch (ControllerException e) {
            return e;
        }
    }

    /**
     * Units of work for their workloads' estimates, applied here only, outside the log: under
     * {@code sensitivity: table} they decide nothing, so they are shown by the controller they were sent to, like
     * the raw signals.
     */
    public void observeHere(List<WorkloadObservation> units) {
        synchronized (lock) {
            learn(units);
        }
    }

    /** Adds units to the estimates and says, in one line each, which workloads' observations left their profile. */
    private void learn(List<WorkloadObservation> units) {
        for (LearnedModels.Outcome o : state.observe(units)) {
            if (o.drift() == WorkloadEstimator.Change.DRIFT_STARTED && counting) {
                metrics.driftFlagged(o.workload());
                ModelDrift.Deviation d = o.deviation();
                LOG.warn("workload {} has drifted from its profile: its last {} units predict a slowdown of {} ± {} at "
                        + "{} % of the link, the table {} ({}{} %); flagged on /status and in saba_sensitivity_drift",
                        o.workload(), o.estimate().observations(), String.format("%.2f", d.estimated()),
                        String.format("%.2f", d.error()), Math.round(100 * d.share()),
                        String.format("%.2f", d.table()), d.relative() >= 0 ? "+" : "",
                        String.format("%.0f", 100 * d.relative()));
            }
        }
    }

    /** Applies what a log kept (a journal replayed, a group's snapshot), without counting them as requests. */
    public void restore(List<LogRequest> requests) {
        synchronized (lock) {
            counting = false;
            state.limitUnrouted(false); // these were acknowledged once: none is refused for want of a route now
            try {
                for (LogRequest r : requests) {
                    apply(r);
                }
            } finally {
                counting = true;
                state.limitUnrouted(true);
            }
        }
    }

    /** Empties the replica (before it is rebuilt from a snapshot), through the ordinary deregistration path. */
    public void clear() {
        synchronized (lock) {
            for (AppView a : state.views(false, System.nanoTime())) {
                state.apply(new Mutation.Deregister(a.appId(), "replica rebuilt"), System.nanoTime(), leaseNanos);
            }
        }
    }

    /**
     * Requests that rebuild this replica from nothing: the log's table, what was learnt of workloads (when learnt
     * models may be in force: {@code sensitivity: online|blended}), the plan (when planned elsewhere), then each
     * application and its connections, and (when planned here) the plan last: levels depend on the order workloads
     * arrived in (running ones keep theirs), which the applications' order alone does not reproduce.
     */
    public List<LogRequest> snapshot() {
        synchronized (lock) {
            List<LogRequest> out = new ArrayList<>();
            if (table != null) {
                out.add(table);
            }
            if (state.sensitivity() != SensitivityMode.TABLE && !state.learned().isEmpty()) {
                out.add(new LogRequest.Learned(state.learned())); // the models learnt, before their applications
            }
            LevelPlan plan = state.plan();
            LogRequest.Plan planned = new LogRequest.Plan(plan.levelOfWorkload(), plan.levels().levelCentroids(),
                    plannedFor, plan.mode());
            if (!planLocally) {
                out.add(planned);
            }
            String tenant = "";
            for (Mutation m : state.asMutations()) {
                if (m instanceof Mutation.Register r) {
                    tenant = r.tenant();
                    out.add(new LogRequest.Call(tenant, LogRequest.Kind.REGISTER, List.of(m)));
                } else {
                    out.add(new LogRequest.Call(tenant, LogRequest.Kind.EVENT, List.of(m)));
                }
            }
            if (planLocally && !plan.levelOfWorkload().isEmpty()) {
                out.add(planned);
            }
            return out;
        }
    }

    private Object call(LogRequest.Call c) {
        return switch (c.kind()) {
            case REGISTER -> register(c.tenant(), (Mutation.Register) c.mutations().get(0));
            case DEREGISTER -> deregister(c.tenant(), c.mutations().get(0));
            case EVENT -> event(c.tenant(), c.mutations().get(0));
            case BATCH -> batch(c.tenant(), c.mutations());
        };
    }

    private Registration register(String tenant, Mutation.Register r) {
        commit(r, tenant);
        AppRecord app = state.app(r.appId());
        count(metrics.registrations, 1);
        return new Registration(app.level(), leaseMillis(), app.workloadKnown());
    }

    private boolean deregister(String tenant, Mutation m) {
        boolean was = commit(m, tenant) > 0;
        if (was) {
            count(metrics.deregistrations, 1);
        }
        return was;
    }

    private int event(String tenant, Mutation m) {
        count(metrics.connectionEvents, 1);
        int n = commit(m, tenant);
        count(metrics.connectionEventsApplied, n);
        return n;
    }

    /** Applies valid events in order and skips invalid ones (see the proto's ReportConnections). */
    private BatchResult batch(String tenant, List<Mutation> events) {
        int applied = 0;
        int rejected = 0;
        String first = "";
        Set<String> unknown = new LinkedHashSet<>();
        List<BatchResult.Rejected> refusedConnections = new ArrayList<>();
        long now = System.nanoTime();
        count(metrics.connectionEvents, events.size());
        for (Mutation m : events) {
            try {
                state.check(m, tenant);
            } catch (ControllerException e) {
                rejected++; // counted by the transport that answers the batch (see commit)
                if (noteRejected(m, e)) {
                    refusedConnections.add(new BatchResult.Rejected(m.appId(), e.getMessage()));
                }
                if (e.kind() == ControllerException.Kind.NOT_FOUND) {
                    unknown.add(m.appId());
                }
                if (first.isEmpty()) {
                    first = e.getMessage();
                }
                continue;
            }
            applied += state.apply(m, now, leaseNanos);
        }
        count(metrics.connectionEventsApplied, applied);
        return new BatchResult(applied, rejected, first, unknown, refusedConnections);
    }

    /**
     * Checks and applies one mutation. A refusal is thrown, and counted by the transport that answers the caller
     * (with the refusals made before a request reaches the log: malformed fields, a missing token, a denied reload),
     * so every member of a group applying the same entry does not count it again.
     */
    private int commit(Mutation m, String tenant) {
        try {
            state.check(m, tenant);
        } catch (ControllerException e) {
            noteRejected(m, e);
            throw e;
        }
        return state.apply(m, System.nanoTime(), leaseNanos);
    }

    /** A registered application's connection report refused as invalid: kept for its status; true if it was one. */
    private boolean noteRejected(Mutation m, ControllerException e) {
        if (e.kind() == ControllerException.Kind.INVALID_ARGUMENT
                && (m instanceof Mutation.Opened || m instanceof Mutation.Sync)) {
            rejectedConnections.compute(m.appId(), (id, before) -> ConnectionRejections.after(before, e.getMessage()));
            return true;
        }
        return false;
    }

    /** Per registered application, the connection reports refused; applications gone are forgotten here. */
    public Map<String, ConnectionRejections> rejectedConnections(Set<String> registered) {
        rejectedConnections.keySet().retainAll(registered);
        return new TreeMap<>(rejectedConnections);
    }

    private void expire(Set<String> apps) {
        for (String appId : apps) {
            if (state.apply(new Mutation.Deregister(appId, "lease expired"), System.nanoTime(), leaseNanos) > 0) {
                count(metrics.leaseExpirations, 1);
                LOG.info("application {} lost its registration: no heartbeat within its lease", appId);
            }
        }
    }

    private void installTable(LogRequest.Table t) {
        state.setCatalog(t.catalog());
        table = t;
        count(metrics.tableReloads, 1);
        LOG.info("sensitivity table installed: {} workloads ({} with a co-run profile)", t.models().size(),
                t.profiles().size());
    }

    private void count(LongAdder counter, long n) {
        if (counting) {
            counter.add(n);
        }
    }

    // ---- outside the log: leases and paths are each replica's own ----

    /** A heartbeat: renews the lease here and returns the current level (a refusal is counted by the transport). */
    public Registration renew(String tenant, String appId) {
        synchronized (lock) {
            AppRecord app = state.app(appId);
            if (app == null) {
                throw ControllerException.notFound("application " + appId
                        + " is not registered (never registered, deregistered, or its lease expired); register again");
            }
            if (!app.tenant().equals(tenant)) {
                throw ControllerException.denied("application " + appId + " belongs to another tenant");
            }
            state.renew(appId, System.nanoTime() + leaseNanos);
            return new Registration(app.level(), leaseMillis(), app.workloadKnown());
        }
    }

    private void renewQuietly(String appId, String tenant) {
        AppRecord app = state.app(appId);
        if (app != null && app.tenant().equals(tenant)) {
            state.renew(appId, System.nanoTime() + leaseNanos);
        }
    }

    /** Gives every application a fresh lease (after a restart, so clients have time to re-sync). */
    public void renewAll() {
        synchronized (lock) {
            state.renewAll(System.nanoTime() + leaseNanos);
        }
    }

    /** The fabric changed: every open connection is resolved again, and those that waited for a route get it. */
    public ControllerState.Rerouted reroute() {
        synchronized (lock) {
            try {
                return state.reroute();
            } finally {
                routeWaits.after(state);
            }
        }
    }

    // ---- reads ----

    /** What one round of the allocation loop reads: the plan and the applications at each port asked for. */
    public Recomputer.Snapshot portSnapshot(List<PortId> ports) {
        synchronized (lock) {
            Map<PortId, PortApps> at = new HashMap<>(2 * ports.size());
            for (PortId p : ports) {
                at.put(p, state.appsAt(p));
            }
            return new Recomputer.Snapshot(state.plan(), at);
        }
    }

    /**
     * Reads the state under the lock: the reads of one call see one state, between two applied requests. The
     * answer must be a value (what {@link StateReads} returns is), never the reads themselves, which are valid only
     * inside the call.
     */
    public <T> T read(Function<? super StateReads, ? extends T> reads) {
        synchronized (lock) {
            return reads.apply(state);
        }
    }

    /**
     * The co-run profile the predictor uses for a workload: the table's, or one learnt from its units (see
     * {@link io.saba.controller.estimate.LearnedModels#profileOf}). Read without the lock: the allocation loop asks
     * it for every weight decision, and the profiles are published for reading from any thread.
     */
    public CorunProfile corunProfileOf(String workload) {
        return state.corunProfileOf(workload);
    }

    /** How long an application keeps its registration without a heartbeat. */
    public long leaseMillis() {
        return TimeUnit.NANOSECONDS.toMillis(leaseNanos);
    }

    /**
     * The plan this replica's controller would compute for these members (what a group's leader logs): the members
     * of the plan in force keep their levels (under {@code level-per: application}, the applications their levels).
     *
     * @param modelOfWorkload workloads with their models, or applications with theirs (see
     *                        {@link StateReads#memberModels})
     */
    public LevelPlan planLevels(Map<String, SensitivityModel> modelOfWorkload) {
        LevelAssignment running;
        Set<String> apart;
        synchronized (lock) {
            running = state.runningLevels();
            apart = state.uninformedWorkloads();
        }
        return allocator.planLevels(modelOfWorkload, running, apart, resolver.minQueues());
    }

    /** The workload models the installed plan was computed for. */
    public SortedMap<String, SensitivityModel> plannedFor() {
        return plannedFor;
    }

    /** The table the log carries, or null while it has carried none. */
    public LogRequest.Table table() {
        return table;
    }

    /** Applications whose lease ran out, with their tenants (whoever reaps leases logs their expiry). */
    public Map<String, String> expiredApplications() {
        synchronized (lock) {
            Map<String, String> out = new LinkedHashMap<>();
            for (String id : state.expired(System.nanoTime())) {
                out.put(id, state.app(id).tenant());
            }
            return out;
        }
    }
}
