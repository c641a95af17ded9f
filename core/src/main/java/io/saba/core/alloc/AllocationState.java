package io.saba.core.alloc;

import io.saba.core.cluster.LevelAssignment;
import io.saba.core.cluster.LevelHierarchy;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Keeps Saba's allocation up to date one controller event at a time, recomputing only what the event can change
 * (paper §5.4): registering or deregistering an application re-clusters levels and revisits every port in use; a
 * connection created or destroyed revisits only the ports on its path, and only those whose set of applications
 * changed (a second connection of an application already on a port changes nothing there).
 *
 * <p>After any sequence of events, {@link #snapshot()} equals {@link Allocator#allocate} over the current
 * applications and connections. Not thread-safe: the controller serialises events.
 */
public final class AllocationState {
    private final Allocator allocator;
    private final Topology topology;

    private final Map<String, Application> apps = new TreeMap<>();
    private final Map<Connection, Integer> openConnections = new HashMap<>();
    /** port → application → how many of its open connections cross the port. */
    private final Map<PortId, Map<String, Integer>> connectionsOnPort = new HashMap<>();
    private final Map<PortId, PortAllocation> allocations = new TreeMap<>();
    private LevelAssignment levels = LevelAssignment.empty();
    private LevelHierarchy hierarchy;

    public AllocationState(Allocator allocator, Topology topology) {
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.topology = Objects.requireNonNull(topology, "topology");
        this.hierarchy = allocator.hierarchy(levels, topology);
    }

    /**
     * Registers an application (or replaces the model of one already registered) and re-clusters levels.
     *
     * @return ports whose allocation changed because levels or queue maps moved, and every application whose level
     *         is new (this one) or moved
     */
    public AllocationDelta register(Application app) {
        Objects.requireNonNull(app, "app");
        if (app.equals(apps.get(app.id()))) {
            return AllocationDelta.none();
        }
        // a re-registration with a new model changes the ports the application is already on
        Set<PortId> touched = new TreeSet<>();
        connectionsOnPort.forEach((port, counts) -> {
            if (counts.containsKey(app.id())) {
                touched.add(port);
            }
        });
        apps.put(app.id(), app);
        return relevel(touched);
    }

    /**
     * Deregisters an application, closing all its connections, and re-clusters levels.
     *
     * @return changed ports, and ports left without Saba traffic; nothing if the application was unknown
     */
    public AllocationDelta deregister(String appId) {
        if (!apps.containsKey(appId)) {
            return AllocationDelta.none();
        }
        Set<PortId> touched = new HashSet<>();
        List<Connection> own = new ArrayList<>();
        openConnections.forEach((c, n) -> {
            if (c.appId().equals(appId)) {
                own.add(c);
            }
        });
        for (Connection c : own) {
            int n = openConnections.remove(c);
            for (PortId port : topology.path(c.srcHost(), c.dstHost())) {
                if (decrement(port, appId, n)) {
                    touched.add(port);
                }
            }
        }
        apps.remove(appId);
        return relevel(touched);
    }

    /**
     * Records a new connection and reallocates the ports on its path whose application set changed.
     *
     * @throws IllegalArgumentException if the application is not registered or a host is unknown
     */
    public AllocationDelta connectionCreated(Connection c) {
        Objects.requireNonNull(c, "connection");
        if (!apps.containsKey(c.appId())) {
            throw new IllegalArgumentException("connection " + c + " belongs to unregistered application " + c.appId());
        }
        List<PortId> path = topology.path(c.srcHost(), c.dstHost());
        openConnections.merge(c, 1, Integer::sum);
        Set<PortId> touched = new TreeSet<>();
        for (PortId port : path) {
            if (connectionsOnPort.computeIfAbsent(port, p -> new TreeMap<>()).merge(c.appId(), 1, Integer::sum) == 1) {
                touched.add(port);
            }
        }
        return reallocate(touched, Map.of());
    }

    /**
     * Forgets one connection and reallocates the ports on its path whose application set changed. Destroying a
     * connection that is not open changes nothing (events may be repeated).
     */
    public AllocationDelta connectionDestroyed(Connection c) {
        Objects.requireNonNull(c, "connection");
        Integer n = openConnections.get(c);
        if (n == null) {
            return AllocationDelta.none();
        }
        if (n == 1) {
            openConnections.remove(c);
        } else {
            openConnections.put(c, n - 1);
        }
        Set<PortId> touched = new TreeSet<>();
        for (PortId port : topology.path(c.srcHost(), c.dstHost())) {
            if (decrement(port, c.appId(), 1)) {
                touched.add(port);
            }
        }
        return reallocate(touched, Map.of());
    }

    /** The current allocation (same as {@link Allocator#allocate} over the current applications and connections). */
    public AllocationResult snapshot() {
        return new AllocationResult(levels.levelOfApp(), levels.levelCentroids(), allocations);
    }

    /** An application's priority level, or 0 (the default class) if it is not registered. */
    public int levelOf(String appId) {
        return levels.levelOf(appId);
    }

    /** The registered applications, by id. */
    public Collection<Application> applications() {
        return List.copyOf(apps.values());
    }

    /** The open connections, each repeated as many times as it is open. */
    public List<Connection> connections() {
        List<Connection> all = new ArrayList<>();
        openConnections.forEach((c, n) -> {
            for (int i = 0; i < n; i++) {
                all.add(c);
            }
        });
        return all;
    }

    /** Removes n connections of an app from a port's count; true if the app left the port. */
    private boolean decrement(PortId port, String appId, int n) {
        Map<String, Integer> counts = connectionsOnPort.get(port);
        int left = counts.get(appId) - n;
        if (left > 0) {
            counts.put(appId, left);
            return false;
        }
        counts.remove(appId);
        if (counts.isEmpty()) {
            connectionsOnPort.remove(port);
        }
        return true;
    }

    /** Re-clusters levels; revisits every port in use if they moved, else only {@code touched}. */
    private AllocationDelta relevel(Set<PortId> touched) {
        LevelAssignment next = allocator.assignLevels(apps.values());
        if (next.equals(levels)) {
            return reallocate(touched, Map.of());
        }
        Map<String, Integer> levelChanges = new TreeMap<>();
        next.levelOfApp().forEach((app, level) -> {
            if (!level.equals(levels.levelOfApp().get(app))) {
                levelChanges.put(app, level);
            }
        });
        levels = next;
        hierarchy = allocator.hierarchy(levels, topology);
        Set<PortId> all = new TreeSet<>(touched);
        all.addAll(connectionsOnPort.keySet());
        return reallocate(all, levelChanges);
    }

    /** Recomputes the given ports; reports those whose allocation changed and those now empty. */
    private AllocationDelta reallocate(Set<PortId> ports, Map<String, Integer> levelChanges) {
        Map<PortId, PortAllocation> changed = new TreeMap<>();
        Set<PortId> released = new TreeSet<>();
        for (PortId port : ports) {
            Map<String, Integer> counts = connectionsOnPort.get(port);
            if (counts == null) {
                if (allocations.remove(port) != null) {
                    released.add(port);
                }
                continue;
            }
            List<Application> present = new ArrayList<>();
            counts.keySet().forEach(id -> present.add(apps.get(id)));
            PortAllocation fresh = allocator.allocatePort(port, topology.queues(port), present, levels, hierarchy);
            if (!Allocator.sameAllocation(fresh, allocations.get(port))) {
                allocations.put(port, fresh);
                changed.put(port, fresh);
            }
        }
        return new AllocationDelta(changed, released, levelChanges);
    }
}
