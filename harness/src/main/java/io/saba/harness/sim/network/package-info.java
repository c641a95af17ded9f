/**
 * What the simulator needs of a network: hosts, the ports a flow crosses, and each port's capacity. Routes are
 * fixed when a network is built (a flow-level simulator has no adaptive routing), so a network is immutable and can
 * be shared by simulations running in parallel.
 */
package io.saba.harness.sim.network;
