package io.saba.agents;

import io.saba.agents.host.AgentSettings;
import io.saba.agents.host.HostAgent;
import io.saba.agents.host.NicSpec;
import io.saba.process.ProcessRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A host agent in a JVM of its own, for tests that kill it with -9: args are the controller, the host, the NIC,
 * the state directory, the lease in seconds and the network namespace.
 */
public final class AgentProcess {
    private AgentProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        HostAgent.start(new AgentSettings(List.of(args[0]), args[1], List.of(NicSpec.parse(args[2])), null,
                Path.of(args[3]), Duration.ofSeconds(Long.parseLong(args[4])), args[5]), new ProcessRunner());
        Thread.sleep(Long.MAX_VALUE);
    }
}
