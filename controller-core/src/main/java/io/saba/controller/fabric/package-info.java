/**
 * Fabric backends: what programs switch ports with queue weights and level→queue maps. One class per fabric behind
 * {@link io.saba.controller.fabric.FabricBackend}, found by name through
 * {@link io.saba.controller.fabric.FabricBackendProvider}; this module ships the recording
 * {@link io.saba.controller.fabric.DryRunBackend}.
 */
package io.saba.controller.fabric;
