/**
 * Replication behind the controller: every write to a controller's state is a {@link io.saba.controller.log.LogRequest}
 * that its {@link io.saba.controller.log.StateLog} orders, keeps and applies to its
 * {@link io.saba.controller.log.Replica}. {@link io.saba.controller.log.LocalLog} is a lone controller's (with an
 * optional journal); module {@code controller-zk} provides a group's shared log. {@link io.saba.controller.log.LogCodec}
 * is the requests' binary form, in a journal and in ZooKeeper alike.
 */
package io.saba.controller.log;
