package io.saba.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.alloc.CorunSearches;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LocalLog;
import io.saba.controller.log.LogCodec;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.state.AppView;
import io.saba.controller.state.Mutation;
import io.saba.controller.state.StateReads;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.LevelMode;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.core.topology.Topologies;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller under {@code level-per: application}: a registering application is answered with a level of its
 * own, two applications of one workload crossing a port get a queue each with their own shares, a level freed by a
 * deregistration is the next newcomer's, a restart from the raw and from the compacted journal gives every
 * application its level again, and a group's members applying the leader's plan from the shared log agree.
 */
class LevelPerApplicationTest {
    private static final ModelCatalog CATALOG = new ModelCatalog(Map.of(
            "lr", SensitivityModel.of(5, -8, 4), "sort", SensitivityModel.of(1.5, -0.5)));

    private static Allocator allocator() {
        return AllocationPipeline.build(AllocationPipeline.Allocation.EQ2, new MinSlowdownSolver(), w -> null, 8, 0.9,
                AllocationPipeline.DEFAULT_CORUN_MARGIN, new CorunSearches(), LevelMode.APPLICATION);
    }

    private static TopologyResolver topology() {
        return new TopologyResolver(Topologies.singleSwitch(4, 10, 8),
                Map.of("h1", List.of("10.0.0.1"), "h2", List.of("10.0.0.2"), "h3", List.of("10.0.0.3"),
                        "h4", List.of("10.0.0.4")));
    }

    private static SabaController start(Path dir) {
        return new SabaController(topology(), allocator(), CATALOG, new DryRunBackend(false, 10),
                new LocalLog(new Journal(dir, FsyncPolicy.NEVER, 20)), Duration.ofMinutes(5), new Metrics(),
                Duration.ZERO).start();
    }

    private static Map<String, Integer> levels(List<AppView> views) {
        Map<String, Integer> out = new TreeMap<>();
        for (AppView v : views) {
            out.put(v.appId(), v.level());
        }
        return out;
    }

    private static Mutation.Register register(String app, String workload) {
        return new Mutation.Register(app, workload, "test", "u", 0, "");
    }

    private static Mutation.Opened opened(String app, int from, int to, int port) {
        return new Mutation.Opened(app, new ConnectionKey("10.0.0." + from, port, "10.0.0." + to, 7337,
                Transport.TCP), 0);
    }

    @Test
    void eachApplicationIsToldALevelOfItsOwnAndKeepsItAcrossRestarts(@TempDir Path dir) throws Exception {
        Map<String, Integer> told = new TreeMap<>();
        try (SabaController c = start(dir)) {
            for (String[] app : new String[][] {{"a", "lr"}, {"b", "lr"}, {"c", "sort"}, {"d", "lr"}}) {
                told.put(app[0], c.register("", register(app[0], app[1])).level());
                told.forEach((id, level) -> assertEquals(level, c.app(id).level(), id + " was renumbered"));
            }
            assertEquals(Map.of("a", 1, "b", 2, "c", 3, "d", 4), told, "a free level each, in arrival order");

            c.connectionEvent("", opened("a", 1, 3, 5001));
            c.connectionEvent("", opened("b", 2, 3, 5002));
            c.connectionEvent("", opened("c", 4, 3, 5003));
            assertTrue(c.recomputer().awaitQuiescent(Duration.ofSeconds(30)), "settled");
            PortAllocation toH3 = c.recomputer().current().get(new PortId("s0", 3));
            Map<Integer, Integer> queueOf = toH3.queueOfLevel();
            assertEquals(3, Set.of(queueOf.get(1), queueOf.get(2), queueOf.get(3)).size(), "a queue each: " + queueOf);
            double[] w = toH3.queueWeights();
            assertEquals(toH3.appWeights().get("a"), w[queueOf.get(1)]);
            assertEquals(w[queueOf.get(1)], w[queueOf.get(2)], "one workload, one share each");

            c.deregister("", "b");
            told.remove("b");
            told.put("e", c.register("", register("e", "lr")).level());
            assertEquals(2, told.get("e"), "b's level, free again");
            assertEquals(told, levels(c.status(false).apps()));
        }
        try (SabaController c = start(dir)) { // replays the journal as written, then compacts it
            assertEquals(told, levels(c.status(false).apps()), "after a restart");
        }
        try (SabaController c = start(dir)) { // replays the compacted journal, whose last record is the plan
            assertEquals(told, levels(c.status(false).apps()), "after a restart from the compacted journal");
        }
    }

    private static Replica member() {
        Replica r = new Replica(topology(), allocator(), CATALOG, ports -> { }, new Metrics(), Duration.ofMinutes(5));
        r.planElsewhere();
        return r;
    }

    /** What a group's leader does: the plan for the members present, logged (through the log's binary form). */
    private static LogRequest lead(Replica leader) {
        var models = leader.read(StateReads::memberModels);
        LevelPlan p = leader.planLevels(models);
        LogRequest plan = new LogRequest.Plan(p.levelOfWorkload(), p.levels().levelCentroids(), models, p.mode());
        return LogCodec.decode(LogCodec.encode("leader", List.of(plan))).requests().get(0);
    }

    private static void applyToAll(LogRequest r, Replica... members) {
        for (Replica m : members) {
            m.apply(r);
        }
    }

    @Test
    void groupMembersApplyingTheLeadersPlanAgree() {
        Replica one = member();
        Replica two = member();
        for (String[] app : new String[][] {{"a", "lr"}, {"b", "lr"}, {"c", "sort"}}) {
            applyToAll(new LogRequest.Call("", LogRequest.Kind.REGISTER, List.of(register(app[0], app[1]))), one, two);
        }
        assertEquals(Map.of("a", 0, "b", 0, "c", 0), levels(one.read(s -> s.views(false, 0))),
                "level 0 until the leader's plan covers them");
        LogRequest plan = lead(one);
        assertEquals(LevelMode.APPLICATION, ((LogRequest.Plan) plan).mode(), "the log says what the members are");
        applyToAll(plan, one, two);
        // from scratch: sort 1 and lr 2 by sensitivity, lr's second application the free level 3
        Map<String, Integer> expected = Map.of("a", 2, "b", 3, "c", 1);
        assertEquals(expected, levels(one.read(s -> s.views(false, 0))));
        assertEquals(expected, levels(two.read(s -> s.views(false, 0))));

        applyToAll(new LogRequest.Call("", LogRequest.Kind.REGISTER, List.of(register("d", "lr"))), one, two);
        applyToAll(lead(two), one, two); // whoever leads, running applications keep their levels
        Map<String, Integer> after = Map.of("a", 2, "b", 3, "c", 1, "d", 4);
        assertEquals(after, levels(one.read(s -> s.views(false, 0))));
        assertEquals(after, levels(two.read(s -> s.views(false, 0))));

        Replica joining = member(); // a member that joins from a snapshot
        joining.restore(one.snapshot());
        assertEquals(after, levels(joining.read(s -> s.views(false, 0))));
    }
}
