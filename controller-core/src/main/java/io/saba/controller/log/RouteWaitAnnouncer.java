package io.saba.controller.log;

import io.saba.controller.state.ControllerState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says in one line when connections start waiting for routes the fabric does not have yet, once when the most that
 * may wait is reached, and once when none waits any more: never a line per event. Called by its {@link Replica}
 * under the replica's lock after every change that may route or unroute connections.
 */
final class RouteWaitAnnouncer {
    /** The replica's logger: these lines are the replica's, and log configurations select them by its name. */
    private static final Logger LOG = LoggerFactory.getLogger(Replica.class);

    private boolean waitingAnnounced;
    private boolean fullAnnounced;
    private long refusedSeen;

    /** Logs what changed in the state's waiting connections since the last call, if it is worth a line. */
    void after(ControllerState state) {
        long waiting = state.unroutedCount();
        if (waiting > 0 && !waitingAnnounced) {
            waitingAnnounced = true;
            LOG.warn("{} connection(s) wait for a route the fabric does not have yet ({}); they are kept and "
                    + "allocated when a topology refresh finds their routes (gauge saba_connections_unrouted)",
                    waiting, state.lastUnroutedReason());
        } else if (waiting == 0 && waitingAnnounced) {
            waitingAnnounced = false;
            fullAnnounced = false;
            LOG.info("no connection waits for a route any more");
        }
        if (state.refusedUnrouted() > refusedSeen && !fullAnnounced) {
            fullAnnounced = true;
            LOG.warn("{} connections wait for routes, the most that may: new connections without a route are "
                    + "refused (FAILED_PRECONDITION, counted in saba_requests_rejected_total) until routes appear",
                    waiting);
        }
        refusedSeen = state.refusedUnrouted();
    }
}
