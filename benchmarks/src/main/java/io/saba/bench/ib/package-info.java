/**
 * The InfiniBand enforcement benchmark ({@code saba bench ib-enforcement}): a subnet simulated by ibsim and brought
 * up by a real OpenSM, a standalone {@code saba controller} process with the InfiniBand backend, applications
 * registered through the client library, and the time from each connection event until the switch ports' VL
 * arbitration tables, read back with Get SMPs of the benchmark's own, hold what the controller planned.
 */
package io.saba.bench.ib;
