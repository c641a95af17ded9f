/**
 * Fabric backends: what programs switch ports with queue weights and level→queue maps. One class per fabric behind
 * {@link io.saba.controller.fabric.FabricBackend}, found by name through
 * {@link io.saba.controller.fabric.FabricBackendProvider}; this module ships the recording
 * {@link io.saba.controller.fabric.DryRunBackend}. {@link io.saba.controller.fabric.FabricStatus} is what the status
 * pages show of the fabric: the last push and its result, the ports being retried, drift and how it is looked for.
 */
package io.saba.controller.fabric;
