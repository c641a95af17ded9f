/**
 * How the controller turns state into fabric configuration: the coalescing {@link io.saba.controller.alloc.Recomputer}
 * recomputes dirty ports on one thread with core's allocation pipeline ({@link io.saba.core.alloc.Allocator}) and
 * pushes only what changed to the fabric backend.
 */
package io.saba.controller.alloc;
