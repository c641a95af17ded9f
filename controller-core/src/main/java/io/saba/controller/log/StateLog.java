package io.saba.controller.log;

/**
 * Where a controller's writes are ordered and kept: the controller hands every write to its log as a
 * {@link LogRequest}, and the log applies it to the controller's {@link Replica} in its order. Alone, the log is
 * {@link LocalLog} (applied at once; kept in a journal, or in memory only); in a controller group it is the group's
 * shared log in ZooKeeper (module {@code controller-zk}), which every member applies in the same order. So
 * replication sits behind the controller: the transports always call the controller, and only the log differs.
 */
public interface StateLog extends AutoCloseable {
    /**
     * Binds the log to the replica it applies to, and restores into it what the log kept (a journal's records).
     * Called once, before any write.
     */
    void open(Replica replica);

    /**
     * Orders one write, applies it, and returns its outcome once it has been applied here.
     *
     * @return what applying the request returned (e.g. a {@code Registration}; null for requests without one)
     * @throws io.saba.controller.state.ControllerException the refusal of the request, or UNAVAILABLE when the log
     *                                                      cannot order it now
     */
    Object write(LogRequest request);

    /**
     * An application heartbeated here: returns once the renewal counts for whoever expires leases. A lone
     * controller's log has nothing to do (its own replica's lease is renewed next, and its reaper reads it); a
     * group's shared log writes the renewal, since the leader expires leases from what the log carries.
     *
     * @throws io.saba.controller.state.ControllerException UNAVAILABLE when the renewal cannot be made to count
     *                                                      now (the heartbeat must then not be acknowledged)
     */
    default void renewed(String appId, String tenant) {
    }

    @Override
    void close();
}
