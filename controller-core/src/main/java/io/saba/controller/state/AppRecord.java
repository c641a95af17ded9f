package io.saba.controller.state;

import io.saba.wire.ConnectionKey;
import io.saba.core.alloc.PortId;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A registered application: who registered it, its level, its lease, its open connections (with the ports each
 * crosses) and the newest event sequence number seen per connection (closed ones too: those entries are what
 * makes a late, reordered "opened" harmless). Mutated only under the controller's lock.
 */
public final class AppRecord {
    final String appId;
    String workload;
    String framework;
    String user;
    int attempt;
    final String tenant;
    int level;
    boolean workloadKnown;
    /** The model of {@link #workload} under the current table, cached: looked up once, not once per port. */
    io.saba.core.model.SensitivityModel model;
    /** {@link #model}'s number in the state (one per model instance): how a port's allocation groups by model. */
    int modelId;
    long leaseDeadlineNanos;
    /** Open connections with the ports each crosses (none while it waits for a route). */
    final Map<ConnectionKey, List<PortId>> open = new LinkedHashMap<>();
    /** The open connections the fabric has no route for yet. */
    final Set<ConnectionKey> unrouted = new HashSet<>();
    final Map<ConnectionKey, Long> lastSeq = new HashMap<>();

    AppRecord(String appId, String tenant) {
        this.appId = appId;
        this.tenant = tenant;
    }

    public String appId() {
        return appId;
    }

    public String workload() {
        return workload;
    }

    public String framework() {
        return framework;
    }

    public String user() {
        return user;
    }

    public int attempt() {
        return attempt;
    }

    public String tenant() {
        return tenant;
    }

    public int level() {
        return level;
    }

    public boolean workloadKnown() {
        return workloadKnown;
    }

    public long leaseDeadlineNanos() {
        return leaseDeadlineNanos;
    }

    public int connectionCount() {
        return open.size();
    }

    public List<ConnectionKey> connections() {
        return List.copyOf(open.keySet());
    }
}
