/**
 * A whole controller in one object ({@link io.saba.controller.server.EmbeddedController}): state, gRPC service,
 * status page, fabric backend, optional journal or group membership; built from the configuration file by
 * {@link io.saba.controller.server.ControllerConfig}, or in-process for a Spark driver or a Flink JobManager by
 * {@link io.saba.controller.server.EmbeddedController#inProcess}.
 */
package io.saba.controller.server;
