package io.saba.controller.fabric;

/**
 * One host agent as the status pages show it (a backend that sends plans to agents, {@link FabricBackend#agents}).
 *
 * @param host         the host the agent enforces for
 * @param connected    whether its plan stream is open now
 * @param planVersion  the version of the host's current plan (0: never had one)
 * @param ackedVersion the newest version the agent acknowledged (0: none)
 * @param ports        how many of the host's ports have a plan now
 * @param lastError    the agent's last refusal or failure, or null
 */
public record AgentStatus(String host, boolean connected, long planVersion, long ackedVersion, int ports,
                          String lastError) {
    /** How many versions the agent is behind its host's plan (0: up to date). */
    public long lag() {
        return Math.max(0, planVersion - ackedVersion);
    }

    /** A host with a plan and no agent connected: its plan is not enforced. */
    public boolean missing() {
        return ports > 0 && !connected;
    }
}
