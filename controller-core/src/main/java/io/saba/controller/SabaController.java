package io.saba.controller;

import io.saba.controller.alloc.PortChanges;
import io.saba.controller.alloc.Recomputer;
import io.saba.controller.estimate.AppShares;
import io.saba.controller.estimate.QueueCounters;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricStatus;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.log.StateLog;
import io.saba.controller.signals.ReportedSignals;
import io.saba.controller.signals.SignalStore;
import io.saba.controller.state.AppView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.ControllerState;
import io.saba.controller.state.Mutation;
import io.saba.controller.state.StateReads;
import io.saba.controller.topology.PathResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.PortId;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.Observation;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller, as its transports see it: every write becomes a {@link LogRequest} that its {@link StateLog}
 * orders, keeps and applies to its {@link Replica} before the call is answered; reads come from the replica; the
 * {@link Recomputer} turns the replica's changes into port configurations on its own thread, so request latency does
 * not depend on allocation cost. Alone the log is a local journal (or memory) and a {@link LeaseReaper} ends
 * forgotten registrations; in a controller group the log is the group's, and the group's leader plans levels and
 * reaps leases for everyone.
 *
 * <p>Transport-agnostic: the gRPC service, the status page and tests all call these methods. {@code tenant} is the
 * authenticated caller ("" with authentication off); an application belongs to the tenant that registered it.
 */
public final class SabaController implements ControllerApi, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SabaController.class);

    private final Replica replica;
    private final StateLog log;
    private final Recomputer recomputer;
    private final FabricBackend backend;
    private final PathResolver resolver;
    private final Metrics metrics;
    private final SignalStore signals = new SignalStore();
    private final AppShares shares;
    /** The bytes each queue of the ports in use sent, where the backend counts them (units' link bytes). */
    private final QueueCounters counters = new QueueCounters();
    private LeaseReaper reaper;
    private volatile String tableInForce = "";
    private volatile java.util.function.Supplier<GroupView> group = () -> null;

    /**
     * @param catalog the configured sensitivity table (a table the log carries replaces it)
     * @param log     where writes are ordered and kept: a {@code LocalLog}, or a group's shared log
     */
    public SabaController(PathResolver resolver, Allocator allocator, ModelCatalog catalog, FabricBackend backend,
                          StateLog log, Duration leaseTimeout, Metrics metrics, Duration minRoundInterval) {
        this(resolver, allocator, catalog, backend, log, leaseTimeout, metrics, minRoundInterval,
                SensitivityMode.TABLE);
    }

    /** @param sensitivity which model the allocator uses for a workload (see {@link SensitivityMode}) */
    public SabaController(PathResolver resolver, Allocator allocator, ModelCatalog catalog, FabricBackend backend,
                          StateLog log, Duration leaseTimeout, Metrics metrics, Duration minRoundInterval,
                          SensitivityMode sensitivity) {
        this.resolver = resolver;
        this.shares = new AppShares(resolver::capacityGbps);
        this.backend = backend;
        this.log = log;
        this.metrics = metrics;
        this.recomputer = new Recomputer(allocator, backend, metrics, resolver::queues, minRoundInterval);
        this.replica = new Replica(resolver, allocator, catalog, recomputer, metrics, leaseTimeout, sensitivity);
        recomputer.addWatcher(changes -> shares.offer(changes, System.currentTimeMillis()));
        if (backend.countsQueueBytes()) {
            counters.start(shares::ports, backend::queueBytes);
        }
        metrics.gauge("saba_applications", "applications registered", this::appCount);
        metrics.gauge("saba_connections", "connections open", this::connectionCount);
        metrics.gauge("saba_connections_unrouted", "connections waiting for a route (a path the topology does not"
                + " know yet)", this::unroutedCount);
        metrics.gauge("saba_ports_configured", "ports holding an allocation", () -> recomputer.current().size());
        metrics.labelledGauge("saba_sensitivity_drift", "1 while a profiled workload's observations contradict its "
                + "profile beyond the estimate's error, 0 otherwise", "workload", () -> drift(false));
        metrics.labelledGauge("saba_sensitivity_deviation", "the online estimate's slowdown against the table's, "
                + "relative, at the share where it lies furthest off (profiled workloads with an estimate)",
                "workload", () -> drift(true));
        metrics.gauge("saba_ports_retrying", "ports whose push failed and is being retried",
                () -> recomputer.retrying().size());
        metrics.gauge("saba_ports_drifted", "ports another agent rewrote since the backend last wrote them",
                () -> backend.drift().size());
    }

    /** Per profiled workload with an estimate: the drift flag (1 or 0), or the relative deviation. */
    private Map<String, Double> drift(boolean deviation) {
        Map<String, Double> out = new TreeMap<>();
        for (WorkloadEstimateView v : replica.read(StateReads::estimates).values()) {
            ModelDrift.Deviation d = v.deviation();
            if (d != null) {
                out.put(v.workload(), deviation ? d.relative() : v.drifting() ? 1.0 : 0.0);
            }
        }
        return out;
    }

    /** Starts alone: restores what the log kept, gives every restored application a fresh lease, reaps leases. */
    public SabaController start() {
        start(true);
        return this;
    }

    /**
     * Starts as one member of a controller group, whose members apply the same shared log in the same order: no
     * lease reaper and no level planning of its own (the group's leader logs expiries and plans).
     */
    public SabaController startAsReplica() {
        replica.planElsewhere();
        start(false);
        return this;
    }

    private void start(boolean alone) {
        resolver.onPathsChanged(this::pathsChanged);
        log.open(replica);
        replica.renewAll();
        recomputer.start(replica::portSnapshot);
        if (alone) {
            reaper = LeaseReaper.start(replica, log);
        }
    }

    // ---- writes: through the log ----

    @Override
    public Registration register(String tenant, Mutation.Register r) {
        Registration reg = (Registration) log.write(call(tenant, LogRequest.Kind.REGISTER, r));
        if (replica.plansLocally()) {
            return reg;
        }
        // a workload new to the group (under level-per: application, any new application) has level 0 until the
        // leader's plan covers it: wait briefly, so the answer has its level
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (!replica.read(StateReads::plan).covers(r.appId(), r.workload()) && System.nanoTime() < end) {
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        AppView v = app(r.appId());
        return v == null ? reg : new Registration(v.level(), reg.leaseMillis(), reg.workloadKnown());
    }

    /**
     * Renews the lease and returns the current level. The log first: a group member acknowledges a heartbeat only
     * once the renewal is in the group's log (the leader expires leases from it), and answers from its replica at
     * that position, so never NOT_FOUND for an application registered at another member before the heartbeat.
     */
    @Override
    public Registration heartbeat(String tenant, String appId) {
        log.renewed(appId, tenant);
        return replica.renew(tenant, appId);
    }

    @Override
    public boolean deregister(String tenant, String appId) {
        return (Boolean) log.write(call(tenant, LogRequest.Kind.DEREGISTER,
                new Mutation.Deregister(appId, "deregistered")));
    }

    /** One connection event or sync; returns 1 if it changed state. */
    @Override
    public int connectionEvent(String tenant, Mutation m) {
        return (Integer) log.write(call(tenant, LogRequest.Kind.EVENT, m));
    }

    /** Applies valid events in order and skips invalid ones (see the proto's ReportConnections). */
    @Override
    public BatchResult batch(String tenant, List<Mutation> events) {
        return (BatchResult) log.write(new LogRequest.Call(tenant, LogRequest.Kind.BATCH, events));
    }

    /**
     * Keeps the work signals of the caller's registered applications, here only: the raw signals are neither
     * logged nor replicated (see {@link SignalStore}). Each unit also becomes an observation of its workload's
     * sensitivity at the share the application had ({@link AppShares}), also for an application deregistered
     * moments ago (its last units may arrive after it left); under {@code sensitivity: online|blended} the
     * observations go through the log, as they decide models in force.
     */
    @Override
    public BatchResult signals(String tenant, List<ReportedSignals> reported) {
        int kept = 0;
        int rejected = 0;
        String first = "";
        java.util.Set<String> unknown = new java.util.LinkedHashSet<>();
        Map<String, AppView> registered = new HashMap<>();
        replica.read(s -> s.views(false, System.nanoTime())).forEach(a -> registered.put(a.appId(), a));
        List<WorkloadObservation> units = new ArrayList<>();
        for (ReportedSignals r : reported) {
            AppView app = registered.get(r.appId());
            ControllerState.Departed gone = app == null ? replica.read(s -> s.departed(r.appId())) : null;
            String owner = app != null ? app.tenant() : gone != null ? gone.tenant() : null;
            String why = owner == null ? "application " + r.appId() + " is not registered"
                    : !owner.equals(tenant) ? "application " + r.appId() + " belongs to another tenant" : null;
            if (why != null) {
                rejected++;
                if (owner == null) {
                    unknown.add(r.appId());
                }
                first = first.isEmpty() ? why : first;
                continue;
            }
            if (app != null) {
                signals.put(r.appId(), r.signals());
            }
            kept++;
            long end = r.signals().endUnixMillis();
            long counted = counters.busiest(shares.ownQueues(r.appId(), id -> {
                AppView v = registered.get(id);
                return v == null ? -1 : v.level();
            }), end - Math.max(0, r.signals().durationMillis()), end);
            Observation o = shares.observation(r.appId(), r.signals(), counted);
            if (o != null) {
                units.add(new WorkloadObservation(app != null ? app.workload() : gone.workload(), r.appId(), o));
            }
        }
        if (signals.size() > registered.size()) {
            signals.retain(registered::containsKey); // applications gone since: bounded by the registered ones
        }
        if (shares.size() > registered.size()) {
            shares.retain(id -> registered.containsKey(id) || replica.read(s -> s.departed(id)) != null);
        }
        learn(units);
        metrics.workSignals.add(kept);
        metrics.requestsRejected.add(rejected);
        return new BatchResult(kept, rejected, first, unknown);
    }

    /** Observations to their workloads' estimates: through the log where they decide models, here otherwise. */
    private void learn(List<WorkloadObservation> units) {
        if (units.isEmpty()) {
            return;
        }
        metrics.sensitivityObservations.add(units.size());
        if (replica.read(StateReads::sensitivity) == SensitivityMode.TABLE) {
            replica.observeHere(units);
            return;
        }
        try {
            log.write(new LogRequest.Observed(units));
        } catch (ControllerException e) {
            // observations, not state: a log that cannot order them now loses them, and the signals are kept anyway
            LOG.debug("{} observations not logged: {}", units.size(), e.getMessage());
        }
    }

    /**
     * Replaces the sensitivity table without a restart; the log keeps it, so a restart (or a new group member)
     * uses it.
     *
     * @return workloads in the new table
     * @throws IllegalArgumentException naming the flaw of a malformed table
     */
    @Override
    public int reloadTable(String json) {
        ModelCatalog catalog = ModelCatalog.parse(json, "reloaded table");
        log.write(LogRequest.Table.of(catalog));
        tableInForce = "reloaded with ReloadTable at " + java.time.Instant.now() + " (" + catalog.size()
                + " workloads)";
        return catalog.size();
    }

    /** A group member's view of its group, which the status pages show (a member sets it when it joins). */
    public void describeGroup(java.util.function.Supplier<GroupView> view) {
        group = view;
    }

    /** Says which table is in force and where it came from (the status pages show it). */
    public void tableInForce(String description) {
        tableInForce = description;
    }

    private static LogRequest call(String tenant, LogRequest.Kind kind, Mutation m) {
        return new LogRequest.Call(tenant, kind, List.of(m));
    }

    /**
     * The fabric changed: every open connection is resolved again, those that waited for a route get their ports,
     * and the ports whose users changed are recomputed.
     */
    public void pathsChanged() {
        io.saba.controller.state.ControllerState.Rerouted r = replica.reroute();
        LOG.info("fabric paths changed: {} connections moved to other ports, {} that waited for a route have one, "
                + "{} wait for a route", r.moved(), r.routed(), r.waiting());
    }

    /**
     * Pushes these ports' configurations whatever was pushed before, and releases the idle ones: what a group
     * member does for a switch it has just taken over, which another member (or nobody) last programmed.
     */
    public void repush(Collection<PortId> ports) {
        recomputer.retake(ports);
    }

    // ---- reads ----

    @Override
    public StatusView status(boolean withConnections) {
        List<AppView> apps = replica.read(s -> s.views(withConnections, System.nanoTime()));
        java.util.Set<String> registered = new java.util.HashSet<>();
        apps.forEach(a -> registered.add(a.appId()));
        signals.retain(registered::contains);
        FabricStatus fabric = new FabricStatus(backend.name(), recomputer.lastPush(), recomputer.retrying(),
                backend.drift(), backend.driftCheck(), backend.agents());
        Map<String, SensitivityModel> models = new TreeMap<>();
        // the model in force, learnt or not
        apps.forEach(a -> models.computeIfAbsent(a.workload(), w -> replica.read(s -> s.modelOf(w))));
        return new StatusView(apps, new TreeMap<>(recomputer.current()), recomputer.version(), fabric,
                connectionCount(), tableInForce, group.get(), new TreeMap<>(signals.snapshot()), models,
                replica.read(StateReads::sensitivity), replica.read(StateReads::estimates),
                replica.rejectedConnections(registered));
    }

    /**
     * A registered application with its connections, or null. This and the counts below are the reads embedders
     * and tests ask of a controller; any other read of its state is {@code replica().read(...)}.
     */
    public AppView app(String appId) {
        return replica.read(s -> s.view(appId, System.nanoTime()));
    }

    public int appCount() {
        return replica.read(StateReads::appCount);
    }

    public long connectionCount() {
        return replica.read(StateReads::connectionCount);
    }

    /** Open connections waiting for a route the fabric does not have yet. */
    public long unroutedCount() {
        return replica.read(StateReads::unroutedCount);
    }

    @Override
    public void addWatcher(Consumer<PortChanges> w) {
        recomputer.addWatcher(w);
    }

    @Override
    public void removeWatcher(Consumer<PortChanges> w) {
        recomputer.removeWatcher(w);
    }

    @Override
    public Metrics metrics() {
        return metrics;
    }

    /** The state behind the log (a controller group's log and leader work on it). */
    public Replica replica() {
        return replica;
    }

    /** The allocation loop (a controller group narrows the ports it programs; tests wait on it). */
    public Recomputer recomputer() {
        return recomputer;
    }

    public PathResolver resolver() {
        return resolver;
    }

    public FabricBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        if (reaper != null) {
            reaper.close();
        }
        recomputer.close();
        counters.close();
        shares.close();
        log.close();
    }
}
