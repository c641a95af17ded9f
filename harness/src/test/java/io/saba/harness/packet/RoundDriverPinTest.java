package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.model.ModelChoice;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.rperf.switchmodel.CongestionControl;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.Policy;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Pins the packet model's results on fixed setups of the packet study: every job's completion time in picoseconds
 * and the data packets delivered, for the shared VL and a VL per application, round robin and FCFS, with and without
 * InfiniBand congestion control. The values were
 * taken from the straightforward engine (a priority queue of boxed events); making the engine faster must leave
 * every one of them exactly as it is.
 */
class RoundDriverPinTest {
    /** 12 hosts (3 leaves × 4, 2:1), two instances per host, jobs of 4 instances: six jobs per setup. */
    private static PacketStudyConfig config(Policy policy) {
        return new PacketStudyConfig(3, 4, 2, 2, 4, 3e-6, List.of(11L), 9, 8, 0, policy, 1,
                PacketStudyConfig.ALL_TIERS, ModelChoice.AUTO, false, 1);
    }

    /** Each job's completion in ps, then the packet count. */
    static String run(PacketStudyConfig cfg, long seed, VlMode mode) {
        return run(cfg, seed, mode, false);
    }

    /** As {@link #run(PacketStudyConfig, long, VlMode)}, with InfiniBand congestion control on if {@code cc}. */
    static String run(PacketStudyConfig cfg, long seed, VlMode mode, boolean cc) {
        List<JobSpec> jobs = new PacketStudy(cfg).draw(seed);
        LeafSpine.Fabric f = cfg.shape().build(cfg.params(), cfg.policy(), cfg.vls());
        if (cc) {
            f.network().enableCongestionControl(CongestionControl.defaults());
        }
        Map<String, Integer> sl = new VlSetup(cfg.vls(), cfg.tableEntries(), null).apply(mode, f, jobs).slOf();
        RoundDriver.Result r = new RoundDriver(f, jobs, sl).run();
        Map<String, Long> ps = new TreeMap<>();
        r.completionSeconds().forEach((job, s) -> ps.put(job, Math.round(s * 1e12)));
        return ps + " " + r.packets() + " packets";
    }

    @Test
    void sharedVlRoundRobin() {
        assertEquals(
                "{j0-syn09=1837343806, j1-syn13=686660005, j2-syn03=684817007, "
                        + "j3-syn16=1665855703, j4-syn08=1253774026, j5-syn19=1682307998} 14712 packets",
                run(config(Policy.RR), 11, VlMode.SHARED));
    }

    @Test
    void vlPerApplicationRoundRobin() {
        assertEquals(
                "{j0-syn09=1618174770, j1-syn13=610979234, j2-syn03=707043117, "
                        + "j3-syn16=1504258222, j4-syn08=789817277, j5-syn19=1563042488} 14712 packets",
                run(config(Policy.RR), 11, VlMode.VL_PER_APPLICATION));
    }

    /** Throttled queue pairs are asked for their heads at every try until their index decays. */
    @Test
    void sharedVlRoundRobinWithCongestionControl() {
        assertEquals(
                "{j0-syn09=1905959849, j1-syn13=667530374, j2-syn03=633582217, "
                        + "j3-syn16=1955147420, j4-syn08=1102979354, j5-syn19=1772251572} 14712 packets",
                run(config(Policy.RR), 11, VlMode.SHARED, true));
    }

    @Test
    void vlPerApplicationFcfsWithCongestionControl() {
        assertEquals(
                "{j0-syn09=1660253663, j1-syn13=603927207, j2-syn03=628692927, "
                        + "j3-syn16=1467132639, j4-syn08=817149945, j5-syn19=1491302855} 14712 packets",
                run(config(Policy.FCFS), 11, VlMode.VL_PER_APPLICATION, true));
    }

    @Test
    void sharedVlFcfs() {
        assertEquals(
                "{j0-syn09=1585264921, j1-syn13=609873838, j2-syn03=563034403, "
                        + "j3-syn16=1663812320, j4-syn08=1323118361, j5-syn19=1761905372} 14712 packets",
                run(config(Policy.FCFS), 11, VlMode.SHARED));
    }

    @Test
    void vlPerApplicationFcfs() {
        assertEquals(
                "{j0-syn09=1564314619, j1-syn13=607204492, j2-syn03=607173959, "
                        + "j3-syn16=1481596456, j4-syn08=811017235, j5-syn19=1528273332} 14712 packets",
                run(config(Policy.FCFS), 11, VlMode.VL_PER_APPLICATION));
    }
}
