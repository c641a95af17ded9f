package io.saba.controller.fabric.linux;

import io.saba.core.alloc.PortId;
import java.util.Map;

/**
 * Names many ports with one {@code backend-options} entry, so that a configuration need not list every device:
 * {@code testbed: tb} asks the source whose {@link #option()} is "testbed" (module {@code saba-testbed}) for the
 * ports of namespace testbed {@code tb}. Sources are found through
 * {@code META-INF/services/io.saba.controller.fabric.linux.LinuxPortSource}; this module knows none of them.
 */
public interface LinuxPortSource {
    /** The {@code backend-options} key this source answers, e.g. "testbed". */
    String option();

    /**
     * @param value the option's value, e.g. a testbed's name
     * @return every port the value names, with its device
     * @throws IllegalArgumentException naming the value when it names nothing usable
     */
    Map<PortId, LinuxPort> ports(String value);
}
