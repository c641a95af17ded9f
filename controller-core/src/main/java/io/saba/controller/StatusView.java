package io.saba.controller;

import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;

/**
 * A consistent picture for status pages: the applications, what each port this controller programs holds, the
 * allocation version, the backend's name, the open connections, the ports the backend found drifted from what it
 * wrote (port → what differs), which sensitivity table is in force (where it came from), and, for a member of a
 * controller group, its view of the group (null for a lone controller).
 */
public record StatusView(List<AppView> apps, Map<PortId, PortAllocation> ports, long version, String backend,
                         long connections, Map<PortId, String> drift, String table, GroupView group) {
}
