package io.saba.bench.ib;

import io.saba.controller.fabric.infiniband.PortCaps;
import io.saba.controller.fabric.infiniband.Smp;
import io.saba.controller.fabric.infiniband.SmpAgent;
import io.saba.controller.fabric.infiniband.VlArbPlan;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.core.alloc.PortId;
import java.util.List;
import java.util.Map;

/**
 * Reads switch ports' low-priority VL arbitration tables with Get SMPs through an SMP agent of its own: a second
 * management client on the subnet, independent of the backend's Sets and of the answers they returned.
 */
final class VlArbReader implements AutoCloseable {
    /** A switch output port: its LID and what its PortInfo says about its queues. */
    record Port(PortId id, int lid, PortCaps caps) {
    }

    private final Smp smp;

    /** @param env the SMP agent's environment (under ibsim: LD_PRELOAD and IBSIM_SOCKNAME) */
    VlArbReader(Map<String, String> env) {
        // generous: a starved machine must slow the figures, not fail the run
        smp = new SmpAgent(env, null, 0, 1_000, 30_000);
    }

    Port locate(IbSubnet subnet, PortId id) {
        IbSubnet.Node sw = subnet.switchNamed(id.node());
        if (sw == null) {
            throw new IllegalStateException("the controller allocated " + id + ", a switch discovery does not know");
        }
        return new Port(id, sw.lid(), PortCaps.parse(smp.get(sw.lid(), Smp.ATTR_PORT_INFO, id.port())));
    }

    /** The port's low-priority table now: its entries that carry weight, in table order. */
    List<VlArbPlan.Entry> low(Port p) {
        int cap = p.caps().lowCap();
        byte[][] blocks = new byte[Math.max(1, (cap + 31) / 32)][];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = smp.get(p.lid(), Smp.ATTR_VL_ARBITRATION, ((1 + b) << 16) | p.id().port());
        }
        return VlArbPlan.decode(blocks, cap).stream().filter(e -> e.weight() > 0).toList();
    }

    @Override
    public void close() {
        smp.close();
    }
}
