package io.saba.agents.host;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a host agent runs.
 *
 * @param controllers "host:port" of each controller (a group's members); tried in turn
 * @param host        the host this agent enforces for, as the controller's topology names it
 * @param nics        the NICs and their ports
 * @param token       the agent's bearer token, or null
 * @param stateDir    where the NICs' originals are kept (survives a kill)
 * @param lease       how long the agent keeps the last plan while no controller is reachable
 * @param netns       the network namespace the NICs are in, or null for the agent's own
 * @param tlsTrust    PEM certificate(s) to trust for the controller's TLS, or null for plaintext
 */
public record AgentSettings(List<String> controllers, String host, List<NicSpec> nics, String token, Path stateDir,
                            Duration lease, String netns, Path tlsTrust) {
    /** Plaintext gRPC. */
    public AgentSettings(List<String> controllers, String host, List<NicSpec> nics, String token, Path stateDir,
                         Duration lease, String netns) {
        this(controllers, host, nics, token, stateDir, lease, netns, null);
    }

    public AgentSettings {
        controllers = List.copyOf(controllers);
        nics = List.copyOf(nics);
        if (controllers.isEmpty()) {
            throw new IllegalArgumentException("--controller: at least one controller address is needed");
        }
        if (nics.isEmpty()) {
            throw new IllegalArgumentException("--nic: no NIC to enforce on (none given and none is up)");
        }
        if (nics.size() > 1 && nics.stream().anyMatch(n -> n.port() < 0)) {
            throw new IllegalArgumentException("--nic: with several NICs each needs its port, PORT=DEV, got " + nics);
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("--lease-seconds must be > 0, got " + lease.toSeconds());
        }
    }
}
