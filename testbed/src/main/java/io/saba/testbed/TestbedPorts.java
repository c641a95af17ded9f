package io.saba.testbed;

import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.LinuxPortSource;
import io.saba.core.alloc.PortId;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code backend-options: {testbed: NAME}} for the Linux backend: every port of a namespace testbed that is up.
 * Switch port i is PortId("sw", i) on the switch namespace's device p<i>; host-based enforcement uses
 * PortId("h<i>", 0), the host's own eth0.
 */
public final class TestbedPorts implements LinuxPortSource {
    @Override
    public String option() {
        return "testbed";
    }

    /** The testbed saved under this name by {@code saba testbed up}. */
    @Override
    public Map<PortId, LinuxPort> ports(String name) {
        try {
            return ports(TestbedSpec.load(name));
        } catch (IOException e) {
            throw new IllegalArgumentException("backend-options.testbed: " + e.getMessage(), e);
        }
    }

    /** The ports of a testbed, whether or not it is up. */
    public Map<PortId, LinuxPort> ports(TestbedSpec s) {
        Map<PortId, LinuxPort> m = new HashMap<>();
        for (int i = 1; i <= s.hosts(); i++) {
            m.put(new PortId(TestbedSpec.SWITCH, i), new LinuxPort(s.switchNamespace(), s.switchPortDevice(i),
                    s.linkRateBps()));
            m.put(new PortId(s.hostName(i), 0), new LinuxPort(s.hostNamespace(i), TestbedSpec.HOST_DEVICE,
                    s.linkRateBps()));
        }
        return Map.copyOf(m);
    }
}
