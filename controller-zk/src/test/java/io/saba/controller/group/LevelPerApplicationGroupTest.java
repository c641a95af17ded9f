package io.saba.controller.group;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.controller.ControllerApi;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.LevelMode;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A controller group under {@code level-per: application}, on real ZooKeeper servers: applications of one workload
 * registered at different members each get a level of their own from the leader's plan, every member holds the same
 * levels, and a member joining later takes them from the log.
 */
class LevelPerApplicationGroupTest {
    private static final Duration CONVERGE = Duration.ofSeconds(60);

    private static Map<String, Integer> levelsAt(GroupFixture.Member m) {
        Map<String, Integer> levels = new TreeMap<>();
        m.controller.api().status(false).apps().forEach(a -> levels.put(a.appId(), a.level()));
        return levels;
    }

    private static boolean agreed(GroupFixture g, int apps) {
        Map<String, Integer> first = levelsAt(g.live().get(0));
        return first.size() == apps && first.values().stream().allMatch(l -> l > 0)
                && g.live().stream().allMatch(m -> levelsAt(m).equals(first));
    }

    @Test
    void membersAgreeOnALevelPerApplication() throws Exception {
        try (GroupFixture g = new GroupFixture(2, LevelMode.APPLICATION)) {
            ControllerApi one = g.members.get(0).controller.api();
            ControllerApi two = g.members.get(1).controller.api();
            one.register("", new Mutation.Register("app-1", "lr", "test", "u", 0, ""));
            two.register("", new Mutation.Register("app-2", "lr", "test", "u", 0, ""));
            one.register("", new Mutation.Register("app-3", "lr", "test", "u", 0, ""));
            two.register("", new Mutation.Register("app-4", "sort", "test", "u", 0, ""));
            await("every member has the leader's level for every application").atMost(CONVERGE)
                    .until(() -> agreed(g, 4));
            Map<String, Integer> levels = levelsAt(g.members.get(0));
            assertEquals(4, new HashSet<>(levels.values()).size(), "a level per application: " + levels);

            GroupFixture.Member late = g.join("m-late");
            await("a member joining later has them too").atMost(CONVERGE).until(() -> agreed(g, 4));
            assertEquals(levels, levelsAt(late));
        }
    }
}
