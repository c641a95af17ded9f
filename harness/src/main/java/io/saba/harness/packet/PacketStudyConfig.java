package io.saba.harness.packet;

import io.saba.core.model.ModelChoice;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One packet-level study (the scale experiment of Figs. 10–11, shrunk to a fabric a packet model can run).
 *
 * @param leaves           leaf switches
 * @param hostsPerLeaf     hosts per leaf; also the profiled node count P (the workloads are profiled on one leaf)
 * @param oversubscription hosts per leaf over uplinks per leaf (spines = hostsPerLeaf / oversubscription)
 * @param perHost          instances per host (1 = the paper's one workload per server)
 * @param instances        instances per job
 * @param timeScale        simulated seconds per second of the paper's workloads (their 60–300 s alone)
 * @param seeds            placement seeds, one setup each
 * @param vls              data VLs per port, VL 0 included (Saba: queues + 1)
 * @param tableEntries     entries of each port's VL arbitration table
 * @param portBufferBytes  0: every VL of every input port has RPerf's own buffer (32 KiB); else each input port
 *                         has this many bytes, split evenly over the VLs the mode uses (1 for the shared VL)
 * @param policy           output arbitration within a VL (the RPerf model's FCFS or RR)
 * @param ackEvery         a queue pair asks for an ACK every this many packets and at each message's end
 *                         ({@link ModelParams#ackEvery}; 1: an ACK per packet)
 * @param separateAt       the tiers of ports where the separating modes write their tables (all: the whole path)
 * @param model            which fitted models the packet profiles may be, as {@code saba profile} chooses them
 * @param fluid            also run the fluid simulator on the same jobs and paths
 * @param threads          runs in parallel
 */
public record PacketStudyConfig(int leaves, int hostsPerLeaf, int oversubscription, int perHost, int instances,
                                double timeScale, List<Long> seeds, int vls, int tableEntries, int portBufferBytes,
                                Policy policy, int ackEvery, Set<LeafSpine.Tier> separateAt, ModelChoice model,
                                boolean fluid, int threads) {
    /** Saba's queues per port in the paper's scale study (and the testbed's 8 + default). */
    public static final int SABA_QUEUES = 8;
    /** Every tier of ports: applications separated along their whole path. */
    public static final Set<LeafSpine.Tier> ALL_TIERS = EnumSet.allOf(LeafSpine.Tier.class);

    public PacketStudyConfig {
        seeds = List.copyOf(seeds);
        if (separateAt.isEmpty()) {
            throw new IllegalArgumentException("the separating modes need at least one tier of ports to write into");
        }
        separateAt = Collections.unmodifiableSet(EnumSet.copyOf(separateAt));
        if (perHost < 1 || instances < 2 || timeScale <= 0 || seeds.isEmpty() || threads < 1 || portBufferBytes < 0) {
            throw new IllegalArgumentException("bad packet study: " + perHost + " per host, " + instances
                    + " instances, time scale " + timeScale + ", " + seeds.size() + " seeds");
        }
        ModelParams.paperDefaults().withAckEvery(ackEvery); // refuses fewer than one packet per ACK
        if (instances > leaves * hostsPerLeaf) {
            throw new IllegalArgumentException(instances + " instances per job but only " + leaves * hostsPerLeaf
                    + " hosts");
        }
        shape(leaves, hostsPerLeaf, oversubscription); // checks the fabric
    }

    private static LeafSpine shape(int leaves, int hostsPerLeaf, int oversubscription) {
        return LeafSpine.oversubscribed(leaves, hostsPerLeaf, oversubscription);
    }

    public LeafSpine shape() {
        return shape(leaves, hostsPerLeaf, oversubscription);
    }

    public int hosts() {
        return leaves * hostsPerLeaf;
    }

    /** Jobs per setup: as many as the hosts' slots hold. */
    public int jobs() {
        return hosts() * perHost / instances;
    }

    public ModelParams params() {
        return ModelParams.paperDefaults().withAckEvery(ackEvery);
    }

    public PacketStudyConfig withSeeds(List<Long> s) {
        return new PacketStudyConfig(leaves, hostsPerLeaf, oversubscription, perHost, instances, timeScale, s, vls,
                tableEntries, portBufferBytes, policy, ackEvery, separateAt, model, fluid, threads);
    }

    public String describe() {
        return String.format(java.util.Locale.ROOT, "%s, %d instance%s per host, %d jobs of %d instances, time scale "
                        + "%.0e, %d VLs, %d-entry VL arbitration tables, %s, %s", shape(), perHost,
                perHost == 1 ? "" : "s", jobs(), instances, timeScale, vls, tableEntries,
                portBufferBytes == 0 ? "32 KiB per input port and VL"
                        : (portBufferBytes / 1024) + " KiB per input port split over the VLs in use", policy)
                + (ackEvery == 1 ? "" : ", an ACK asked every " + ackEvery + " packets and at a message's end")
                + (separateAt.equals(ALL_TIERS) ? "" : ", applications separated only at " + separateAt)
                + ", Saba's models " + model;
    }
}
