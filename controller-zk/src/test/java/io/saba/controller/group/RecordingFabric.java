package io.saba.controller.group;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One fabric shared by every member, as the switches are: each push is recorded with the time and the member that
 * made it, and a port holds what it was last told. The point of the tests is the group's protocol, so recording
 * stands in for switches here.
 */
final class RecordingFabric {
    record Push(long nanos, String member, PortId port, PortAllocation allocation) {
    }

    private final List<Push> pushes = new ArrayList<>();
    private final Map<PortId, PortAllocation> configured = new TreeMap<>();

    synchronized List<Push> pushes() {
        return List.copyOf(pushes);
    }

    synchronized Map<PortId, PortAllocation> configured() {
        return Map.copyOf(configured);
    }

    /** The backend one member uses. */
    FabricBackend backendFor(String member) {
        return new FabricBackend() {
            @Override
            public String name() {
                return "recording";
            }

            @Override
            public ApplyResult apply(Collection<PortAllocation> changed) {
                long now = System.nanoTime();
                Set<PortId> done = new HashSet<>();
                synchronized (RecordingFabric.this) {
                    for (PortAllocation a : changed) {
                        pushes.add(new Push(now, member, a.port(), a));
                        configured.put(a.port(), a);
                        done.add(a.port());
                    }
                }
                return new ApplyResult(done, Map.of());
            }

            @Override
            public ApplyResult release(Set<PortId> ports) {
                long now = System.nanoTime();
                synchronized (RecordingFabric.this) {
                    for (PortId p : ports) {
                        pushes.add(new Push(now, member, p, null));
                        configured.remove(p);
                    }
                }
                return new ApplyResult(ports, Map.of());
            }

            @Override
            public void close() {
                // the switches outlive a controller
            }
        };
    }
}
