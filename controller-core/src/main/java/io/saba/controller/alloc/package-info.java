/**
 * How the controller turns state into fabric configuration: the thin {@link io.saba.controller.alloc.AllocationEngine}
 * seam to core's math, and the coalescing {@link io.saba.controller.alloc.Recomputer} that recomputes dirty ports on
 * one thread and pushes only what changed to the fabric backend.
 */
package io.saba.controller.alloc;
