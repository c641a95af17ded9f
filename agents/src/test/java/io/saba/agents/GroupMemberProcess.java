package io.saba.agents;

import io.saba.agents.controller.AgentsBackend;
import io.saba.controller.group.GroupSettings;
import io.saba.controller.group.ZkControllerGroup;
import io.saba.controller.server.EmbeddedController;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A controller group member with the agents backend in a JVM of its own, for tests that kill it with -9 (a crash:
 * no hand-over, its claims wait for its ZooKeeper session to expire): args are the ZooKeeper connect string and the
 * member's id. It prints {@code target HOST:PORT} (its gRPC address) once it has joined, then runs until killed.
 */
public final class GroupMemberProcess {
    private GroupMemberProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        ZkControllerGroup group = new ZkControllerGroup(new GroupSettings(args[0], AgentsGroupTest.NAMESPACE,
                AgentsGroupTest.SESSION, args[1]), AgentsGroupTest.topology());
        EmbeddedController c = EmbeddedController.builder().topology(AgentsGroupTest.topology())
                .table(AgentsGroupTest.catalog()).backend(new AgentsBackend(Duration.ofSeconds(2)), true).group(group)
                .listen(new InetSocketAddress("127.0.0.1", 0)).build();
        c.start();
        System.out.println("target " + c.target());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
