package io.saba.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.log.LocalLog;
import io.saba.controller.state.AppView;
import io.saba.controller.state.Mutation;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.AllocationResult;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.Application;
import io.saba.core.alloc.Connection;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The controller recomputes only the ports an event touches, on snapshots, coalescing events into rounds; after
 * any sequence of events what it pushed must equal core's pipeline run from scratch over the same applications and
 * connections: the same workloads share each queue, with the same weight. Only the level numbers may differ, as a
 * running workload keeps its level while the pipeline from scratch numbers levels by sensitivity; and they must:
 * a workload keeps its level as long as some application runs it.
 */
class IncrementalAllocationTest {
    private static final List<String> WORKLOADS = List.of("lr", "pr", "svm", "wc", "sort");
    private static final ModelCatalog CATALOG = new ModelCatalog(Map.of(
            "lr", SensitivityModel.of(5, -8, 4), "pr", SensitivityModel.of(3, -4, 2),
            "svm", SensitivityModel.of(2, -1.5, 0.5), "wc", SensitivityModel.of(1.2, -0.2),
            "sort", SensitivityModel.of(1.5, -0.5)));

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

    @Test
    void whatThePortsHoldEqualsThePipelineFromScratchAfterEveryEvent() throws Exception {
        for (Topology t : List.of(smallSpineLeaf(), mixedQueueRing())) {
            for (long seed = 1; seed <= 2; seed++) {
                runRandomEvents(t, seed, 120);
            }
        }
    }

    private static void runRandomEvents(Topology t, long seed, int events) throws Exception {
        List<String> hosts = new ArrayList<>(t.hosts());
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            addresses.put(hosts.get(i), List.of("10.0.0." + (i + 1)));
        }
        TopologyResolver topology = new TopologyResolver(t, addresses);
        Allocator allocator = new Allocator(new MinSlowdownSolver(), 8, 0.85);
        DryRunBackend fabric = new DryRunBackend(false, 10);
        Random r = new Random(seed);
        Map<String, Integer> attempts = new java.util.HashMap<>();
        Map<String, Integer> levelOfWorkload = new java.util.HashMap<>();
        try (SabaController c = new SabaController(topology, allocator, CATALOG, fabric, new LocalLog(null),
                Duration.ofMinutes(5), new Metrics(), Duration.ZERO).start()) {
            for (int e = 0; e < events; e++) {
                List<AppView> apps = c.status(true).apps();
                int kind = r.nextInt(10);
                String what;
                if (kind == 0 || apps.isEmpty()) {
                    String id = "app" + r.nextInt(12);
                    String w = WORKLOADS.get(r.nextInt(WORKLOADS.size()));
                    // a higher attempt is a restarted driver: its old connections go
                    int attempt = attempts.merge(id, r.nextInt(2), Integer::sum);
                    what = "register " + id + " (" + w + ", attempt " + attempt + ")";
                    c.register("", new Mutation.Register(id, w, "test", "u", attempt, ""));
                } else if (kind == 1) {
                    String id = apps.get(r.nextInt(apps.size())).appId();
                    what = "deregister " + id;
                    c.deregister("", id);
                } else {
                    AppView a = apps.get(r.nextInt(apps.size()));
                    if (kind <= 6 || a.open().isEmpty()) {
                        ConnectionKey k = new ConnectionKey("10.0.0." + (1 + r.nextInt(hosts.size())),
                                1024 + r.nextInt(50_000), "10.0.0." + (1 + r.nextInt(hosts.size())), 7337,
                                Transport.TCP);
                        what = "open " + k + " of " + a.appId();
                        c.connectionEvent("", new Mutation.Opened(a.appId(), k, 0));
                    } else {
                        ConnectionKey k = a.open().get(r.nextInt(a.open().size()));
                        what = "close " + k + " of " + a.appId();
                        c.connectionEvent("", new Mutation.Closed(a.appId(), k, 0));
                    }
                }
                assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(30)), "settled");
                String when = "seed " + seed + " event " + e + " (" + what + ") on " + t;
                assertMatchesScratch(c, topology, allocator, fabric.configured(), when);
                assertRunningWorkloadsKeepTheirLevels(c, levelOfWorkload, when);
            }
        }
    }

    /** A workload's level stays while any application runs it (its connections carry it already). */
    private static void assertRunningWorkloadsKeepTheirLevels(SabaController c, Map<String, Integer> levelOfWorkload,
                                                              String when) {
        Map<String, Integer> now = new java.util.HashMap<>();
        for (AppView v : c.status(false).apps()) {
            now.put(v.workload(), v.level());
        }
        levelOfWorkload.keySet().retainAll(now.keySet());
        now.forEach((w, level) -> assertEquals(levelOfWorkload.computeIfAbsent(w, x -> level), level,
                when + ": running workload " + w + " was renumbered"));
    }

    private static void assertMatchesScratch(SabaController c, TopologyResolver topology, Allocator allocator,
                                             Map<PortId, PortAllocation> pushed, String when) {
        List<Application> apps = new ArrayList<>();
        List<Connection> conns = new ArrayList<>();
        Map<String, Integer> levels = new LinkedHashMap<>();
        for (AppView v : c.status(true).apps()) {
            apps.add(new Application(v.appId(), v.workload(), CATALOG.modelOf(v.workload())));
            levels.put(v.appId(), v.level());
            for (ConnectionKey k : v.open()) {
                conns.add(new Connection(v.appId(), topology.hostOf(k.srcIp()).orElseThrow(),
                        topology.hostOf(k.dstIp()).orElseThrow()));
            }
        }
        AllocationResult scratch = allocator.allocate(apps, conns, topology.topology());
        assertEquals(scratch.levelOfApp().keySet(), levels.keySet(), when + ": applications");
        assertEquals(scratch.ports().keySet(), pushed.keySet(), when + ": ports configured");
        // the controller's view of each port holds the latest per-application weights; the fabric was pushed only
        // what changed its configuration, which must be the same
        Map<PortId, PortAllocation> current = c.recomputer().current();
        for (PortId p : pushed.keySet()) {
            PortAllocation want = scratch.ports().get(p);
            PortAllocation got = current.get(p);
            assertEquals(got.queueOfLevel(), pushed.get(p).queueOfLevel(), when + ": pushed queues of " + p);
            assertTrue(Arrays.equals(got.queueWeights(), pushed.get(p).queueWeights()), when + ": pushed weights");
            assertEquals(want.appWeights(), got.appWeights(), when + ": applications' weights at " + p);
            assertEquals(Allocator.queuesByMembers(want, scratch.levelOfApp()),
                    Allocator.queuesByMembers(got, levels),
                    when + ": queues of " + p + " " + Arrays.toString(want.queueWeights()) + " vs "
                            + Arrays.toString(got.queueWeights()));
        }
    }
}
