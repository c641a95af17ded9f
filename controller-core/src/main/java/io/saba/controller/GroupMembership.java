package io.saba.controller;

import io.saba.core.table.ModelCatalog;

/**
 * Makes a controller one member of a controller group (the module {@code saba-controller-zk} implements it on
 * ZooKeeper): the local {@link SabaController} becomes a replica of the group's shared log, and the transports call
 * the member, which orders writes through that log. Lives here, empty of any ZooKeeper type, so the embedded
 * controller that the Spark and Flink plugins carry never depends on the group's store.
 */
public interface GroupMembership extends AutoCloseable {
    /**
     * Joins the group once the replica exists (started as a replica, with an empty table).
     *
     * @param configuredTable this instance's configured sensitivity table, which the group adopts if it has none
     * @return what the gRPC service and the status page call
     */
    ControllerApi join(SabaController replica, ModelCatalog configuredTable);

    /** Leaves the group: stops programming the fabric first, then lets the others take over. */
    @Override
    void close();
}
