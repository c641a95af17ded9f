/**
 * The network as data: hosts, switches, links and queue counts ({@link io.saba.core.topology.Topology}), the
 * switch output ports a connection crosses under deterministic ECMP, and builders for the topologies Saba is
 * evaluated on ({@link io.saba.core.topology.Topologies}). No I/O: loading a topology file is the controller's job.
 */
package io.saba.core.topology;
