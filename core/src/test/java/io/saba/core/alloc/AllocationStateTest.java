package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.Eq2Solver;
import io.saba.core.testing.Workloads;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class AllocationStateTest {
    private static final List<SensitivityModel> MODELS = List.copyOf(Workloads.hibench().values());

    /** 2 pods × 3 ToRs × 2 servers, 2 leaves per pod, 4 spines: 12 hosts, 4 queues per port (3 for Saba). */
    private static Topology smallSpineLeaf() {
        return Topologies.spineLeaf(2, 3, 2, 2, 4, 2, 10, 4);
    }

    /** A ring of switches with different queue counts (2..5, one port overridden), two hosts each. */
    private static Topology mixedQueueRing() {
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < 4; i++) {
            b.switchNode("s" + i, 2 + i);
            for (int h = 0; h < 2; h++) {
                b.host("s" + i + "h" + h).link("s" + i, "s" + i + "h" + h, 10);
            }
        }
        for (int i = 0; i < 4; i++) {
            b.link("s" + i, "s" + ((i + 1) % 4), 40);
        }
        return b.portQueues("s3", 3, 3).build(); // one port of the 5-queue switch has 3
    }

    private static void assertSameResult(AllocationResult expected, AllocationResult actual, String when) {
        assertEquals(expected.levelOfApp(), actual.levelOfApp(), when);
        assertEquals(expected.levelCentroids(), actual.levelCentroids(), when);
        assertEquals(expected.ports().keySet(), actual.ports().keySet(), when);
        for (PortId p : expected.ports().keySet()) {
            assertTrue(Allocator.sameAllocation(expected.ports().get(p), actual.ports().get(p)),
                    when + ": port " + p + " expected " + expected.ports().get(p) + " got " + actual.ports().get(p));
        }
    }

    /** Ports whose allocation differs between two results (added, removed or changed). */
    private static Set<PortId> differences(AllocationResult before, AllocationResult after) {
        Set<PortId> all = new TreeSet<>(before.ports().keySet());
        all.addAll(after.ports().keySet());
        Set<PortId> diff = new TreeSet<>();
        for (PortId p : all) {
            if (!Allocator.sameAllocation(before.ports().get(p), after.ports().get(p))) {
                diff.add(p);
            }
        }
        return diff;
    }

    @Test
    void aConnectionChangesOnlyPortsOnItsPath() {
        Topology t = smallSpineLeaf();
        Allocator allocator = new Allocator(new Eq2Solver(), 8, 0.9);
        AllocationState state = new AllocationState(allocator, t);
        state.register(new Application("lr", "lr", Workloads.hibench().get("lr")));
        state.register(new Application("pr", "pr", Workloads.hibench().get("pr")));
        state.connectionCreated(new Connection("pr", "p0-tor0-h0", "p1-tor2-h1"));
        state.connectionCreated(new Connection("pr", "p0-tor1-h0", "p0-tor2-h1"));

        Connection c = new Connection("lr", "p0-tor0-h1", "p1-tor1-h0");
        AllocationDelta d = state.connectionCreated(c);
        List<PortId> lrPath = t.path(c.srcHost(), c.dstHost());
        Set<PortId> path = new HashSet<>(lrPath);
        assertTrue(path.containsAll(d.changed().keySet()), d.changed().keySet() + " not within " + path);
        assertEquals(path, d.changed().keySet(), "every port on the path gained LR");
        assertEquals(Map.of("lr", 0.9), state.snapshot().ports().get(lrPath.get(4)).appWeights(),
                "LR alone on the port to its destination host");
        Set<PortId> prPorts = new HashSet<>(t.path("p0-tor0-h0", "p1-tor2-h1"));
        prPorts.addAll(t.path("p0-tor1-h0", "p0-tor2-h1"));
        for (PortId p : path) {
            Set<String> expected = prPorts.contains(p) ? Set.of("lr", "pr") : Set.of("lr");
            assertEquals(expected, state.snapshot().ports().get(p).appWeights().keySet(), "applications on " + p);
        }

        assertTrue(state.connectionCreated(c).isEmpty(), "a second identical connection changes no port");
        assertTrue(state.connectionDestroyed(c).isEmpty(), "one of the two is still open");
        AllocationDelta gone = state.connectionDestroyed(c);
        assertTrue(path.containsAll(gone.changed().keySet()) && path.containsAll(gone.released()));
        assertTrue(gone.released().contains(lrPath.get(4)), "ports only LR used are released");
        assertEquals(Set.of("pr"), state.snapshot().ports().get(t.path("p0-tor0-h0", "p1-tor2-h1").get(4)).appWeights().keySet());
        assertTrue(state.connectionDestroyed(c).isEmpty(), "destroying a closed connection is a no-op");
    }

    @Test
    void deregisterClosesConnectionsAndReleasesPorts() {
        Topology t = Topologies.singleSwitch(3, 10, 4);
        AllocationState state = new AllocationState(new Allocator(new Eq2Solver(), 16, 1.0), t);
        state.register(new Application("a", "lr", Workloads.hibench().get("lr")));
        state.connectionCreated(new Connection("a", "h1", "h2"));
        AllocationDelta d = state.deregister("a");
        assertEquals(Set.of(new PortId("s0", 2)), d.released());
        assertTrue(state.snapshot().ports().isEmpty());
        assertTrue(state.connections().isEmpty());
        assertEquals(0, state.levelOf("a"));
        assertThrows(IllegalArgumentException.class, () -> state.connectionCreated(new Connection("a", "h1", "h2")));
    }

    @Test
    void incrementalEqualsFromScratchOnRandomEvents() {
        for (Topology t : List.of(smallSpineLeaf(), mixedQueueRing())) {
            for (long seed = 1; seed <= 3; seed++) {
                runRandomEvents(t, seed, 250);
            }
        }
    }

    private static void runRandomEvents(Topology t, long seed, int events) {
        Random r = new Random(seed);
        Allocator allocator = new Allocator(new Eq2Solver(), 8, 0.85);
        AllocationState state = new AllocationState(allocator, t);
        List<String> hosts = new ArrayList<>(t.hosts());
        List<Connection> open = new ArrayList<>();
        Set<String> registered = new TreeSet<>();
        AllocationResult before = state.snapshot();
        for (int e = 0; e < events; e++) {
            int kind = r.nextInt(10);
            String what;
            AllocationDelta d;
            if (kind == 0 || registered.isEmpty()) {
                String id = "app" + r.nextInt(12);
                Application a = new Application(id, "w", MODELS.get(r.nextInt(MODELS.size())));
                what = "register " + id;
                d = state.register(a);
                registered.add(id);
            } else if (kind == 1) {
                String id = new ArrayList<>(registered).get(r.nextInt(registered.size()));
                what = "deregister " + id;
                d = state.deregister(id);
                registered.remove(id);
                open.removeIf(c -> c.appId().equals(id));
            } else if (kind <= 6 || open.isEmpty()) {
                String id = new ArrayList<>(registered).get(r.nextInt(registered.size()));
                Connection c = new Connection(id, hosts.get(r.nextInt(hosts.size())), hosts.get(r.nextInt(hosts.size())));
                what = "create " + c;
                d = state.connectionCreated(c);
                open.add(c);
                assertTrue(new HashSet<>(t.path(c.srcHost(), c.dstHost())).containsAll(d.changed().keySet()), what);
            } else {
                Connection c = open.remove(r.nextInt(open.size()));
                what = "destroy " + c;
                d = state.connectionDestroyed(c);
                Set<PortId> path = new HashSet<>(t.path(c.srcHost(), c.dstHost()));
                assertTrue(path.containsAll(d.changed().keySet()) && path.containsAll(d.released()), what);
            }
            String when = "seed " + seed + " event " + e + " (" + what + ") on " + t;
            AllocationResult now = state.snapshot();
            AllocationResult scratch = allocator.allocate(state.applications(), open, t);
            assertSameResult(scratch, now, when);
            Set<PortId> reported = new TreeSet<>(d.changed().keySet());
            reported.addAll(d.released());
            assertEquals(differences(before, now), reported, when + ": the delta is exactly what changed");
            Map<String, Integer> moved = new java.util.TreeMap<>();
            for (Map.Entry<String, Integer> l : now.levelOfApp().entrySet()) {
                if (!l.getValue().equals(before.levelOfApp().get(l.getKey()))) {
                    moved.put(l.getKey(), l.getValue());
                }
            }
            assertEquals(moved, d.levelChanges(), when + ": level changes");
            before = now;
        }
        assertTrue(before.ports().size() > 0 || open.isEmpty());
    }
}
