package io.saba.controller;

import io.saba.controller.signals.AppSignals;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;

/**
 * A consistent picture for status pages: the applications, what each port this controller programs holds, the
 * allocation version, the backend's name, the open connections, and the ports the backend found drifted from what
 * it wrote (port → what differs), which sensitivity table is in force (where it came from), and the work signals
 * of the applications that reported any (application id → signals).
 */
public record StatusView(List<AppView> apps, Map<PortId, PortAllocation> ports, long version, String backend,
                         long connections, Map<PortId, String> drift, String table,
                         Map<String, AppSignals> signals) {
}
