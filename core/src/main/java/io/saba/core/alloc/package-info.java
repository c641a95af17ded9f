/**
 * Bandwidth allocation as a pure function of (applications, connections, topology): {@link
 * io.saba.core.alloc.Allocator} computes every crossed port's queue map and weights from scratch, and {@link
 * io.saba.core.alloc.AllocationState} keeps the same result up to date one event at a time, recomputing only the
 * ports an event touches.
 *
 * <p><b>Queues.</b> On every port queue 0 is the default class's: level 0 (unregistered traffic, control traffic,
 * latency-critical services) maps to it and it is given the part of the link Saba does not own, 1 - C_Saba. Saba's
 * priority levels are fitted into queues 1..Q-1 by {@link io.saba.core.cluster.LevelHierarchy}; a queue's weight is
 * the sum of the Eq. 2 weights of the applications whose levels map to it, so Saba's queues sum to C_Saba. With
 * C_Saba = 1 the default queue's weight is 0, and it is up to the fabric to keep such a queue from starving.
 */
package io.saba.core.alloc;
