package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.testing.EqualShareSolver;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.testing.Workloads;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AllocatorTest {
    private static final Map<String, SensitivityModel> W = Workloads.hibench();
    private static final Application LR = new Application("app-lr", "lr", W.get("lr"));
    private static final Application PR = new Application("app-pr", "pr", W.get("pr"));
    private static final Topology SWITCH = Topologies.singleSwitch(4, 56, 4);

    @Test
    void lrGetsTheLargerQueueOnAPortItSharesWithPr() {
        Allocator allocator = new Allocator(new MinSlowdownSolver(), 16, 0.9);
        AllocationResult r = allocator.allocate(List.of(LR, PR),
                List.of(new Connection("app-lr", "h1", "h3"), new Connection("app-pr", "h2", "h3"),
                        new Connection("app-lr", "h1", "h2")),
                SWITCH);
        assertEquals(Set.of(new PortId("s0", 2), new PortId("s0", 3)), r.ports().keySet());
        int lrLevel = r.levelOfApp().get("app-lr");
        int prLevel = r.levelOfApp().get("app-pr");
        assertTrue(lrLevel > prLevel, "LR is more sensitive, so it gets the higher level");

        PortAllocation shared = r.ports().get(new PortId("s0", 3));
        double[] q = shared.queueWeights();
        assertEquals(4, q.length);
        assertEquals(0, shared.queueOfLevel().get(0), "default level in queue 0");
        assertEquals(0.1, q[0], 1e-12, "default queue keeps 1 - C_Saba");
        int lrQueue = shared.queueOfLevel().get(lrLevel);
        int prQueue = shared.queueOfLevel().get(prLevel);
        assertTrue(lrQueue != prQueue && lrQueue > 0 && prQueue > 0, shared.queueOfLevel().toString());
        assertTrue(q[lrQueue] > q[prQueue], "LR queue " + q[lrQueue] + " vs PR queue " + q[prQueue]);
        assertEquals(0.9, q[lrQueue] + q[prQueue], 1e-9);
        assertEquals(1.0, Arrays.stream(q).sum(), 1e-9);
        assertEquals(q[lrQueue], shared.appWeights().get("app-lr"), 1e-12);
        // the grid is honest: its split beats an equal split
        double equal = W.get("lr").slowdown(0.45) + W.get("pr").slowdown(0.45);
        double chosen = W.get("lr").slowdown(q[lrQueue]) + W.get("pr").slowdown(q[prQueue]);
        assertTrue(chosen < equal, chosen + " vs equal split " + equal);

        PortAllocation lrOnly = r.ports().get(new PortId("s0", 2));
        assertEquals(Map.of("app-lr", 0.9), lrOnly.appWeights());
        assertEquals(Set.of(0, lrLevel), lrOnly.queueOfLevel().keySet(), "only levels present are mapped");
    }

    @Test
    void anApplicationCountsOncePerPortHoweverManyConnections() {
        Allocator allocator = new Allocator(new MinSlowdownSolver(), 16, 1.0);
        Connection lr = new Connection("app-lr", "h1", "h3");
        Connection pr = new Connection("app-pr", "h2", "h3");
        AllocationResult once = allocator.allocate(List.of(LR, PR), List.of(lr, pr), SWITCH);
        AllocationResult many = allocator.allocate(List.of(PR, LR), List.of(lr, lr, lr, new Connection("app-lr", "h4", "h3"), pr),
                SWITCH);
        PortId port = new PortId("s0", 3);
        assertTrue(Allocator.sameAllocation(once.ports().get(port), many.ports().get(port)));
    }

    @Test
    void levelsShareQueuesWhenThePortHasFewQueues() {
        // 2 queues per port: queue 0 for the default class, everything of Saba's in queue 1
        Topology twoQueues = Topologies.singleSwitch(4, 56, 2);
        Application svm = new Application("app-svm", "svm", W.get("svm"));
        AllocationResult r = new Allocator(new MinSlowdownSolver(), 16, 0.8).allocate(List.of(LR, PR, svm),
                List.of(new Connection("app-lr", "h1", "h4"), new Connection("app-pr", "h2", "h4"),
                        new Connection("app-svm", "h3", "h4")),
                twoQueues);
        PortAllocation p = r.ports().get(new PortId("s0", 4));
        assertEquals(3, r.levelCentroids().size());
        assertEquals(Set.of(1), Set.copyOf(p.queueOfLevel().entrySet().stream()
                .filter(e -> e.getKey() != 0).map(Map.Entry::getValue).toList()));
        assertEquals(0.8, p.queueWeights()[1], 1e-9);
        assertEquals(0.2, p.queueWeights()[0], 1e-9);
    }

    @Test
    void threeQueuesSplitTheThesisGroups() {
        // 4 queues: 3 for Saba; ten workloads at ten levels fold into the thesis's three groups on a shared port
        Topology t = Topologies.singleSwitch(11, 56, 4);
        List<Application> apps = W.entrySet().stream()
                .map(e -> new Application("app-" + e.getKey(), e.getKey(), e.getValue())).toList();
        List<Connection> conns = new java.util.ArrayList<>();
        for (int i = 0; i < apps.size(); i++) {
            conns.add(new Connection(apps.get(i).id(), "h" + (i + 1), "h11"));
        }
        AllocationResult r = new Allocator(new EqualShareSolver(), 16, 1.0).allocate(apps, conns, t);
        PortAllocation p = r.ports().get(new PortId("s0", 11));
        Map<Integer, Integer> q = p.queueOfLevel();
        int low = q.get(r.levelOfApp().get("app-ts"));
        int mid = q.get(r.levelOfApp().get("app-svm"));
        int high = q.get(r.levelOfApp().get("app-lr"));
        assertEquals(List.of(1, 2, 3), List.of(low, mid, high));
        for (String w : List.of("wc", "pr", "sql")) {
            assertEquals(low, q.get(r.levelOfApp().get("app-" + w)), w);
        }
        for (String w : List.of("ni", "nw")) {
            assertEquals(mid, q.get(r.levelOfApp().get("app-" + w)), w);
        }
        for (String w : List.of("rf", "gbt")) {
            assertEquals(high, q.get(r.levelOfApp().get("app-" + w)), w);
        }
        assertEquals(0.4, p.queueWeights()[low], 1e-9, "equal shares: 4 of 10 applications");
    }

    @Test
    void refusesConnectionsOfUnknownApplicationsAndDuplicateIds() {
        Allocator allocator = new Allocator(new EqualShareSolver(), 16, 1.0);
        assertThrows(IllegalArgumentException.class,
                () -> allocator.allocate(List.of(LR), List.of(new Connection("ghost", "h1", "h2")), SWITCH));
        assertThrows(IllegalArgumentException.class, () -> allocator.allocate(List.of(LR, LR), List.of(), SWITCH));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> allocator.allocate(List.of(LR), List.of(new Connection("app-lr", "h1", "h9")), SWITCH));
        assertTrue(e.getMessage().contains("h9"));
        assertThrows(IllegalArgumentException.class, () -> new Allocator(new EqualShareSolver(), 16, 0));
        assertThrows(IllegalArgumentException.class, () -> new Allocator(new EqualShareSolver(), 16, 1.5));
    }
}
