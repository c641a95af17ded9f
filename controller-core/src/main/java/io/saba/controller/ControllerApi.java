package io.saba.controller;

import io.saba.controller.alloc.PortChanges;
import io.saba.controller.signals.ReportedSignals;
import io.saba.controller.state.Mutation;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the transports (the gRPC service, the status page) ask of a controller; {@link SabaController} answers,
 * alone or as a member of a controller group (the difference is behind it, in its log), so the transports never
 * know which one they serve.
 *
 * <p>Refusals are {@link io.saba.controller.state.ControllerException}s; {@code tenant} is the authenticated
 * caller ("" with authentication off).
 */
public interface ControllerApi {
    Registration register(String tenant, Mutation.Register r);

    /** Renews the lease; returns the current level. */
    Registration heartbeat(String tenant, String appId);

    boolean deregister(String tenant, String appId);

    /** One connection event or sync; returns 1 if it changed state. */
    int connectionEvent(String tenant, Mutation m);

    /** Applies valid events in order and skips invalid ones. */
    BatchResult batch(String tenant, List<Mutation> events);

    /**
     * Keeps work signals of the caller's registered applications; like a batch, skips the others (applied: kept;
     * unknown applications listed, so the client registers them again).
     */
    BatchResult signals(String tenant, List<ReportedSignals> signals);

    /** Replaces the sensitivity table; returns the workloads it holds. */
    int reloadTable(String json);

    StatusView status(boolean withConnections);

    /** Told of every change this controller pushes to the fabric. */
    void addWatcher(Consumer<PortChanges> w);

    void removeWatcher(Consumer<PortChanges> w);

    Metrics metrics();
}
