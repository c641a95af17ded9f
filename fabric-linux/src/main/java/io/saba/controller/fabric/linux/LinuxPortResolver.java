package io.saba.controller.fabric.linux;

import io.saba.core.alloc.PortId;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Tells the backend which Linux device (and namespace, and link rate) a Saba port is. */
@FunctionalInterface
public interface LinuxPortResolver {
    /** The device for a port, or empty if this backend does not manage it. */
    Optional<LinuxPort> resolve(PortId port);

    /** Every port this resolver knows, where it can list them ({@code saba fabric status} looks at each). */
    default Set<PortId> ports() {
        return Set.of();
    }

    /** A fixed table, e.g. from configuration or from {@code Testbed#ports}. */
    static LinuxPortResolver of(Map<PortId, LinuxPort> ports) {
        Map<PortId, LinuxPort> copy = Map.copyOf(ports);
        return new LinuxPortResolver() {
            @Override
            public Optional<LinuxPort> resolve(PortId port) {
                return Optional.ofNullable(copy.get(port));
            }

            @Override
            public Set<PortId> ports() {
                return copy.keySet();
            }
        };
    }
}
