package io.saba.controller.http;

import io.saba.controller.fabric.AgentStatus;
import java.util.List;

/**
 * The dashboard's table of host agents (backend {@code agents}): each host, whether its agent is connected, the
 * version it acknowledged and how far behind its host's plan it is, its last error; a host with a plan and no agent
 * is marked missing.
 */
final class AgentsTable {
    private AgentsTable() {
    }

    static void render(StringBuilder h, List<AgentStatus> agents) {
        long missing = agents.stream().filter(AgentStatus::missing).count();
        h.append("<h3>Host agents").append(missing == 0 ? "" : " (<span class=\"bad\">" + Human.count(missing)
                + " missing</span>)").append("</h3><table id=\"agents\" class=\"problems\"><tr><th>host</th>"
                + "<th>agent</th><th>acknowledged</th><th>behind</th><th>ports</th><th>last error</th></tr>");
        for (AgentStatus a : agents) {
            String state = a.connected() ? "<span class=\"ok\">connected</span>"
                    : a.missing() ? "<span class=\"bad\">missing</span>" : "not connected";
            h.append("<tr><td>").append(DashboardPage.esc(a.host())).append("</td><td>").append(state)
                    .append("</td><td>").append(a.ackedVersion()).append(" of ").append(a.planVersion())
                    .append("</td><td>").append(a.lag() == 0 ? "0" : "<span class=\"bad\">" + a.lag() + "</span>")
                    .append("</td><td>").append(a.ports()).append("</td><td>")
                    .append(a.lastError() == null ? "" : DashboardPage.esc(a.lastError())).append("</td></tr>");
        }
        h.append("</table>");
    }
}
