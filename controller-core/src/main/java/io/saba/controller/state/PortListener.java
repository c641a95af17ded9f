package io.saba.controller.state;

import io.saba.core.alloc.PortId;
import java.util.Collection;

/**
 * Told which ports' allocations may have changed: the state's only way out to whoever recomputes them (the
 * controller's allocation loop), so the state never knows that loop.
 */
@FunctionalInterface
public interface PortListener {
    void dirty(Collection<PortId> ports);
}
