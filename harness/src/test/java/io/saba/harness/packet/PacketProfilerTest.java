package io.saba.harness.packet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.model.ModelChoice;
import io.saba.core.model.Sample;
import io.saba.harness.sim.workload.SyntheticCatalog;
import io.saba.harness.sim.workload.WorkloadCalibration;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shrunk synthetic workloads keep the sensitivity they were calibrated for: profiled packet by packet, their
 * slowdowns follow the calibration's formula (within 3 % from 25 % of the link up, 6 % below, where the packets'
 * headers and ACKs, about 1.3 % of the link, push a hidden shuffle out from under its computation sooner).
 */
class PacketProfilerTest {
    @Test
    void packetLevelProfilesFollowTheCalibration() {
        List<WorkloadCalibration> cal = SyntheticCatalog.calibrations();
        List<WorkloadSpec> specs = PacketStudy.workloads(1e-5, 6, 56e9 / 8);
        PacketProfiler profiler = new PacketProfiler(ModelParams.paperDefaults(), Policy.RR, ModelChoice.paper(3));
        for (int i : new int[] {0, 2, 6, 11}) {
            for (Sample s : profiler.samples(specs.get(i))) {
                double expected = cal.get(i).expectedSlowdown(s.bandwidthPercent() / 100);
                double tolerance = (s.bandwidthPercent() >= 25 ? 0.03 : 0.06) * expected;
                assertEquals(expected, s.slowdown(), tolerance, specs.get(i).name() + " at " + s.bandwidthPercent());
            }
        }
    }

    /**
     * The packet-measured traffic record carries what the first host sent: per round of a workload on n hosts, each
     * host sends S/n² bytes to each of the n − 1 others, so the record's utilisation summed over its intervals,
     * times an interval's line bytes, is that total.
     */
    @Test
    void theTrafficRecordCarriesTheFirstHostsBytes() {
        WorkloadSpec w = Fig8PacketCampaign.workloads(1e-6, 56e9 / 8).get(9); // sort: 2 rounds of one stage
        PacketProfiler profiler = new PacketProfiler(ModelParams.paperDefaults(), Policy.RR,
                ModelChoice.AUTO);
        io.saba.core.corun.TrafficRecord r = profiler.record(w);
        int n = w.profiledNodes();
        double sent = 0;
        for (var st : w.stages()) {
            sent += st.repeat() * (n - 1) * Math.round(st.shuffleBytes() / ((double) n * n));
        }
        double carried = 0;
        for (double u : r.utilisation()) {
            carried += u * 56e9 / 8 * r.intervalSeconds();
        }
        assertEquals(sent, carried, 1e-6 * sent);
        assertEquals(profiler.aloneSeconds(w, 56), r.seconds(), 1e-12, "the record spans the run alone");
    }
}
