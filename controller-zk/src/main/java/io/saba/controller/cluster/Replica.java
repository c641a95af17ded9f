package io.saba.controller.cluster;

import io.saba.controller.SabaController;
import io.saba.controller.state.AppView;
import io.saba.controller.state.ControllerException;
import io.saba.controller.state.Mutation;
import io.saba.core.table.ModelCatalog;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Applies the shared log's requests to this member's {@link SabaController} (started as a replica). Runs on the
 * follower thread only, so entries apply one at a time in log order; the outcome of a client's call is what the
 * member that took the call answers.
 */
final class Replica {
    private final SabaController controller;
    private volatile SortedMap<String, SensitivityModel> plannedFor = new TreeMap<>();
    private volatile SortedMap<String, SensitivityModel> table;

    Replica(SabaController controller) {
        this.controller = controller;
    }

    SabaController controller() {
        return controller;
    }

    /** The workload models the installed plan was computed for (the leader re-plans when they differ). */
    SortedMap<String, SensitivityModel> plannedFor() {
        return plannedFor;
    }

    /** The group's table, or null while the log has carried none. */
    SortedMap<String, SensitivityModel> table() {
        return table;
    }

    /** @return the call's outcome: its result, or the {@link ControllerException} refusing it */
    Object apply(LogRequest r) {
        if (r instanceof LogRequest.Call c) {
            try {
                return call(c);
            } catch (ControllerException e) {
                return e;
            }
        } else if (r instanceof LogRequest.Renew rn) {
            rn.tenantOfApp().forEach((app, tenant) -> {
                try {
                    controller.heartbeat(tenant, app);
                } catch (ControllerException e) {
                    // deregistered since: nothing to renew
                }
            });
        } else if (r instanceof LogRequest.Expire ex) {
            ex.tenantOfApp().forEach((app, tenant) -> {
                try {
                    controller.deregister(tenant, app);
                } catch (ControllerException e) {
                    // gone already
                }
            });
        } else if (r instanceof LogRequest.Table t) {
            controller.installTable(new ModelCatalog(t.models()));
            table = t.models();
        } else if (r instanceof LogRequest.Plan p) {
            controller.installPlan(new LevelAssignment(p.levelOfWorkload(), p.centroids()));
            plannedFor = p.plannedFor();
        }
        return null;
    }

    private Object call(LogRequest.Call c) {
        return switch (c.kind()) {
            case REGISTER -> controller.register(c.tenant(), (Mutation.Register) c.mutations().get(0));
            case DEREGISTER -> controller.deregister(c.tenant(), c.mutations().get(0).appId());
            case EVENT -> controller.connectionEvent(c.tenant(), c.mutations().get(0));
            case BATCH -> controller.batch(c.tenant(), c.mutations());
        };
    }

    /** Empties the replica (before it is rebuilt from a snapshot), through the ordinary deregistration path. */
    void clear() {
        for (AppView a : controller.status(false).apps()) {
            controller.deregister(a.tenant(), a.appId());
        }
    }

    /** Requests that rebuild this replica's state from nothing: table, plan, then each application. */
    List<LogRequest> asRequests() {
        List<LogRequest> out = new ArrayList<>();
        if (table != null) {
            out.add(new LogRequest.Table(table));
        }
        LevelAssignment a = controller.plan().levels();
        out.add(new LogRequest.Plan(a.levelOfApp(), a.levelCentroids(), plannedFor));
        String tenant = "";
        for (Mutation m : controller.stateAsMutations()) {
            if (m instanceof Mutation.Register r) {
                tenant = r.tenant();
                out.add(new LogRequest.Call(tenant, LogRequest.Kind.REGISTER, List.of(m)));
            } else {
                out.add(new LogRequest.Call(tenant, LogRequest.Kind.EVENT, List.of(m)));
            }
        }
        return out;
    }

}
