package io.saba.controller;

import io.saba.controller.log.StateLog;
import io.saba.core.table.ModelCatalog;

/**
 * Makes a controller one member of a controller group (the module {@code saba-controller-zk} implements it on
 * ZooKeeper): the controller writes through the group's shared log ({@link #log()}) instead of a local one, and the
 * member splits the fabric with the others and, when elected, does the leader's work. Lives here, empty of any
 * ZooKeeper type, so the embedded controller that the Spark and Flink plugins carry never depends on the group's
 * store.
 */
public interface GroupMembership extends AutoCloseable {
    /** The group's shared log, which this member's controller is built with (before {@link #join}). */
    StateLog log();

    /**
     * Joins the group once the controller exists (started as a replica, with an empty table): catches up with the
     * log, then claims a share of the switches and takes part in the election.
     *
     * @param configuredTable this instance's configured sensitivity table, which the group adopts if it has none
     */
    void join(SabaController controller, ModelCatalog configuredTable);

    /** Leaves the group: stops programming the fabric first, then lets the others take over. */
    @Override
    void close();
}
