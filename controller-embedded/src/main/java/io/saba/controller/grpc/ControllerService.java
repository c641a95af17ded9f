package io.saba.controller.grpc;

import io.saba.controller.BatchResult;
import io.saba.controller.Registration;
import io.saba.controller.StatusView;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.saba.controller.ControllerApi;
import io.saba.controller.SabaController;
import io.saba.controller.Tenants;
import io.saba.controller.alloc.PortChanges;
import io.saba.controller.signals.AppSignals;
import io.saba.controller.signals.ReportedSignals;
import io.saba.controller.state.AppView;
import io.saba.wire.ConnectionKey;
import io.saba.wire.ConnectionProto;
import io.saba.wire.Contract;
import io.saba.wire.SignalsProto;
import io.saba.wire.WorkSignals;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AppStatus;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.DeregisterRequest;
import io.saba.proto.v1.DeregisterResponse;
import io.saba.proto.v1.EventAck;
import io.saba.proto.v1.HeartbeatRequest;
import io.saba.proto.v1.HeartbeatResponse;
import io.saba.proto.v1.PortStatus;
import io.saba.proto.v1.RegisterRequest;
import io.saba.proto.v1.RegisterResponse;
import io.saba.proto.v1.ReloadTableRequest;
import io.saba.proto.v1.ReloadTableResponse;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.StatusResponse;
import io.saba.proto.v1.SyncRequest;
import io.saba.proto.v1.WatchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The saba.v1 Controller service: translates messages to {@link SabaController} calls and
 * {@link ControllerException}s to status codes, and counts every refusal (saba_requests_rejected_total). What a
 * caller may do and see is {@link Tenants}'; no allocation logic of its own.
 */
public final class ControllerService extends ControllerGrpc.ControllerImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerService.class);
    /** Skipped batched events are said in the log at most this often (a client may send thousands a second). */
    private static final long SKIPPED_LINE_NANOS = TimeUnit.MINUTES.toNanos(1);
    private final ControllerApi controller;
    private final Tenants tenants;
    private final Supplier<String> configuredTable;
    private final Map<ServerCallStreamObserver<io.saba.proto.v1.AllocationChange>, Consumer<PortChanges>> watches =
            new java.util.concurrent.ConcurrentHashMap<>();
    private final LongAdder skippedSinceLine = new LongAdder();
    private final AtomicLong nextSkippedLine = new AtomicLong(System.nanoTime());

    /**
     * @param tenants         who may reload the table and who sees which applications
     * @param configuredTable reads the configured table file, for a reload without inline JSON
     */
    public ControllerService(ControllerApi controller, Tenants tenants, Supplier<String> configuredTable) {
        this.controller = controller;
        this.tenants = tenants;
        this.configuredTable = configuredTable;
    }

    @Override
    public void register(RegisterRequest r, StreamObserver<RegisterResponse> out) {
        answer(out, () -> {
            Registration reg = controller.register(AuthInterceptor.tenant(), new Mutation.Register(
                    RequestFields.appId(r.getAppId()), RequestFields.label("workload", r.getWorkload()),
                    RequestFields.label("framework", r.getFramework()), RequestFields.label("user", r.getUser()),
                    r.getAttempt(), AuthInterceptor.tenant()));
            return RegisterResponse.newBuilder().setLevel(reg.level()).setLeaseMillis(reg.leaseMillis())
                    .setWorkloadKnown(reg.workloadKnown()).setContractRevision(Contract.REVISION).build();
        });
    }

    @Override
    public void heartbeat(HeartbeatRequest r, StreamObserver<HeartbeatResponse> out) {
        answer(out, () -> {
            Registration reg = controller.heartbeat(AuthInterceptor.tenant(),
                    RequestFields.appId(r.getAppId()));
            return HeartbeatResponse.newBuilder().setLevel(reg.level()).setLeaseMillis(reg.leaseMillis()).build();
        });
    }

    @Override
    public void deregister(DeregisterRequest r, StreamObserver<DeregisterResponse> out) {
        answer(out, () -> DeregisterResponse.newBuilder().setWasRegistered(
                controller.deregister(AuthInterceptor.tenant(), RequestFields.appId(r.getAppId()))).build());
    }

    @Override
    public void connectionOpened(ConnectionEvent e, StreamObserver<EventAck> out) {
        answer(out, () -> ack(controller.connectionEvent(AuthInterceptor.tenant(), mutation(true, e))));
    }

    @Override
    public void connectionClosed(ConnectionEvent e, StreamObserver<EventAck> out) {
        answer(out, () -> ack(controller.connectionEvent(AuthInterceptor.tenant(), mutation(false, e))));
    }

    @Override
    public void reportConnections(ConnectionBatch b, StreamObserver<EventAck> out) {
        answer(out, () -> {
            if (b.getEventsCount() > RequestFields.MAX_BATCH) {
                throw ControllerException.invalid("batch has " + b.getEventsCount() + " events; at most "
                        + RequestFields.MAX_BATCH + " allowed");
            }
            if (b.getSignalsCount() > RequestFields.MAX_SIGNALS) {
                throw ControllerException.invalid("batch has " + b.getSignalsCount() + " work signals; at most "
                        + RequestFields.MAX_SIGNALS + " allowed");
            }
            List<Mutation> events = new ArrayList<>(b.getEventsCount());
            int malformed = 0;
            String first = "";
            for (BatchedEvent e : b.getEventsList()) {
                try {
                    events.add(mutation(e.getOpen(), e.getEvent()));
                } catch (ControllerException ex) {
                    malformed++;
                    first = first.isEmpty() ? ex.getMessage() : first;
                }
            }
            List<ReportedSignals> signals = new ArrayList<>(b.getSignalsCount());
            for (io.saba.proto.v1.WorkSignals w : b.getSignalsList()) {
                try {
                    signals.add(new ReportedSignals(RequestFields.appId(w.getAppId()), SignalsProto.fromProto(w)));
                } catch (ControllerException | IllegalArgumentException ex) {
                    malformed++;
                    first = first.isEmpty() ? "work signals: " + ex.getMessage() : first;
                }
            }
            BatchResult r = events.isEmpty() ? new BatchResult(0, 0, "", Set.of())
                    : controller.batch(AuthInterceptor.tenant(), events);
            BatchResult kept = signals.isEmpty() ? new BatchResult(0, 0, "", Set.of())
                    : controller.signals(AuthInterceptor.tenant(), signals);
            Set<String> unknown = new java.util.LinkedHashSet<>(r.unknownApps());
            unknown.addAll(kept.unknownApps());
            String firstInController = r.firstRejection().isEmpty() ? kept.firstRejection() : r.firstRejection();
            int skipped = r.rejected() + kept.rejected() + malformed;
            controller.metrics().requestsRejected.add(skipped);
            noteSkipped(skipped, first.isEmpty() ? firstInController : first);
            EventAck.Builder ack = EventAck.newBuilder().setApplied(r.applied())
                    .setRejected(skipped)
                    .setFirstRejection(first.isEmpty() ? firstInController : first)
                    .addAllUnknownApps(unknown).setSignalsStored(kept.applied());
            r.rejectedConnections().forEach(x -> ack.addRejectedConnections(
                    io.saba.proto.v1.RejectedConnection.newBuilder().setAppId(x.appId()).setReason(x.reason())));
            return ack.build();
        });
    }

    @Override
    public void syncConnections(SyncRequest s, StreamObserver<EventAck> out) {
        answer(out, () -> {
            if (s.getOpenCount() > RequestFields.MAX_SYNC) {
                throw ControllerException.invalid("sync lists " + s.getOpenCount() + " connections; at most "
                        + RequestFields.MAX_SYNC + " allowed");
            }
            List<ConnectionKey> keys = new ArrayList<>(s.getOpenCount());
            for (Connection c : s.getOpenList()) {
                keys.add(RequestFields.connection(c));
            }
            return ack(controller.connectionEvent(AuthInterceptor.tenant(),
                    new Mutation.Sync(RequestFields.appId(s.getAppId()), keys, s.getSeq())));
        });
    }

    @Override
    public void status(StatusRequest r, StreamObserver<StatusResponse> out) {
        answer(out, () -> {
            StatusView v = tenants.visibleTo(AuthInterceptor.tenant(), controller.status(r.getIncludeConnections()));
            StatusResponse.Builder b = StatusResponse.newBuilder().setAllocationVersion(v.version())
                    .setBackend(v.fabric().backend());
            for (AppView a : v.apps()) {
                AppStatus.Builder s = AppStatus.newBuilder().setAppId(a.appId()).setWorkload(a.workload())
                        .setFramework(a.framework()).setUser(a.user()).setAttempt(a.attempt())
                        .setLevel(a.level()).setTenant(a.tenant()).setConnections(a.connections())
                        .setLeaseRemainingMillis(a.leaseRemainingMillis()).setWorkloadKnown(a.workloadKnown());
                for (ConnectionKey k : a.open()) {
                    s.addOpen(ConnectionProto.toProto(k));
                }
                AppSignals signals = v.signals().get(a.appId());
                if (r.getIncludeSignals() && signals != null) {
                    for (WorkSignals w : signals.latest()) {
                        s.addSignals(SignalsProto.toProto(a.appId(), w));
                    }
                    s.setSignalsTotal(SignalsProto.toProto(a.appId(), signals.total()))
                            .setSignalsReported(signals.reported());
                }
                b.addApps(s);
            }
            for (PortAllocation p : v.ports().values()) {
                b.addPorts(port(p));
            }
            v.fabric().drift().forEach((p, what) -> b.putDrift(p.toString(), what));
            return b.build();
        });
    }

    @Override
    public void watch(WatchRequest r, StreamObserver<io.saba.proto.v1.AllocationChange> out) {
        ServerCallStreamObserver<io.saba.proto.v1.AllocationChange> call =
                (ServerCallStreamObserver<io.saba.proto.v1.AllocationChange>) out;
        String tenant = AuthInterceptor.tenant();
        Consumer<PortChanges> watcher = change -> {
            // a watcher that cannot keep up misses changes rather than growing the controller's memory;
            // Status gives the full picture at any time
            if (call.isReady()) {
                call.onNext(tenants.isAdmin(tenant) ? change(change) : change(change, appsOf(tenant)));
            }
        };
        call.setOnCancelHandler(() -> {
            controller.removeWatcher(watcher);
            watches.remove(call);
        });
        watches.put(call, watcher);
        controller.addWatcher(watcher);
    }

    /** Ends every Watch stream (on shutdown, so the server need not wait for watchers to hang up). */
    public void closeWatches() {
        watches.forEach((call, watcher) -> {
            controller.removeWatcher(watcher);
            try {
                call.onCompleted();
            } catch (RuntimeException e) {
                // already cancelled by the client
            }
        });
        watches.clear();
    }

    @Override
    public void reloadTable(ReloadTableRequest r, StreamObserver<ReloadTableResponse> out) {
        answer(out, () -> {
            if (!tenants.isAdmin(AuthInterceptor.tenant())) {
                throw ControllerException.denied("tenant " + AuthInterceptor.tenant()
                        + " may not reload the sensitivity table (not in admin-tenants)");
            }
            String json = r.getTableJson().isBlank() ? configuredTable.get() : r.getTableJson();
            try {
                return ReloadTableResponse.newBuilder().setWorkloads(controller.reloadTable(json)).build();
            } catch (IllegalArgumentException e) {
                throw ControllerException.invalid("sensitivity table rejected: " + e.getMessage());
            }
        });
    }

    private static Mutation mutation(boolean open, ConnectionEvent e) {
        String app = RequestFields.appId(e.getAppId());
        if (!e.hasConnection()) {
            throw ControllerException.invalid("connection event without a connection");
        }
        ConnectionKey k = RequestFields.connection(e.getConnection());
        return open ? new Mutation.Opened(app, k, e.getSeq()) : new Mutation.Closed(app, k, e.getSeq());
    }

    private static EventAck ack(int applied) {
        return EventAck.newBuilder().setApplied(applied).build();
    }

    static PortStatus port(PortAllocation p) {
        PortStatus.Builder b = PortStatus.newBuilder().setNode(p.port().node()).setPort(p.port().port());
        for (Map.Entry<Integer, Integer> e : p.queueOfLevel().entrySet()) {
            b.putQueueOfLevel(e.getKey(), e.getValue());
        }
        for (double w : p.queueWeights()) {
            b.addQueueWeights(w);
        }
        b.putAllAppWeights(p.appWeights());
        if (!Double.isNaN(p.predictedSlowdown())) {
            b.setPredictedSlowdown(p.predictedSlowdown());
        }
        return b.build();
    }

    static io.saba.proto.v1.AllocationChange change(PortChanges c) {
        io.saba.proto.v1.AllocationChange.Builder b = io.saba.proto.v1.AllocationChange.newBuilder()
                .setAllocationVersion(c.version());
        for (PortAllocation p : c.changed()) {
            b.addChanged(port(p));
        }
        return released(b, c);
    }

    /** A change as a tenant sees it: the changed ports its applications cross, with only their weights. */
    static io.saba.proto.v1.AllocationChange change(PortChanges c, Set<String> appsOfTenant) {
        io.saba.proto.v1.AllocationChange.Builder b = io.saba.proto.v1.AllocationChange.newBuilder()
                .setAllocationVersion(c.version());
        for (PortAllocation p : c.changed()) {
            PortAllocation mine = StatusView.onlyApps(p, appsOfTenant);
            if (mine != null) {
                b.addChanged(port(mine));
            }
        }
        return released(b, c);
    }

    private Set<String> appsOf(String tenant) {
        Set<String> ids = new java.util.HashSet<>();
        for (AppView a : controller.status(false).apps()) {
            if (a.tenant().equals(tenant)) {
                ids.add(a.appId());
            }
        }
        return ids;
    }

    /** Released ports carry no application: every watcher is told. */
    private static io.saba.proto.v1.AllocationChange released(io.saba.proto.v1.AllocationChange.Builder b,
                                                             PortChanges c) {
        for (PortId p : c.released()) {
            b.addReleased(PortStatus.newBuilder().setNode(p.node()).setPort(p.port()));
        }
        return b.build();
    }

    private interface Call<T> {
        T run();
    }

    /**
     * Says in the controller's log that batched events were skipped (the caller learns it from the ack, the
     * operator from here and from saba_requests_rejected_total): at most one line a minute, with the count since
     * the last line and one reason.
     */
    private void noteSkipped(int skipped, String reason) {
        if (skipped == 0) {
            return;
        }
        skippedSinceLine.add(skipped);
        long now = System.nanoTime();
        long next = nextSkippedLine.get();
        if (now - next >= 0 && nextSkippedLine.compareAndSet(next, now + SKIPPED_LINE_NANOS)) {
            LOG.warn("skipped {} batched connection events or work signals since the last such line, e.g.: {}",
                    skippedSinceLine.sumThenReset(), reason);
        }
    }

    private <T> void answer(StreamObserver<T> out, Call<T> call) {
        T result;
        try {
            result = call.run();
        } catch (ControllerException e) {
            controller.metrics().requestsRejected.increment();
            out.onError(status(e));
            return;
        } catch (RuntimeException e) {
            out.onError(Status.INTERNAL.withDescription("controller error: " + e).withCause(e).asRuntimeException());
            return;
        }
        out.onNext(result);
        out.onCompleted();
    }

    private static StatusRuntimeException status(ControllerException e) {
        Status s = switch (e.kind()) {
            case INVALID_ARGUMENT -> Status.INVALID_ARGUMENT;
            case NOT_FOUND -> Status.NOT_FOUND;
            case PERMISSION_DENIED -> Status.PERMISSION_DENIED;
            case FAILED_PRECONDITION -> Status.FAILED_PRECONDITION;
            case UNAUTHENTICATED -> Status.UNAUTHENTICATED;
            case UNAVAILABLE -> Status.UNAVAILABLE;
        };
        return s.withDescription(e.getMessage()).asRuntimeException();
    }
}
