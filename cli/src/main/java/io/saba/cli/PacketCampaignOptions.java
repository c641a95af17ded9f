package io.saba.cli;

import io.saba.core.model.ModelChoice;
import io.saba.harness.campaign.OutputFolder;
import io.saba.harness.packet.Fig8Scheme;
import io.saba.harness.packet.WorkloadShapes;
import io.saba.harness.packet.PacketStudy;
import io.saba.harness.packet.PacketStudyConfig;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.ModelParams;
import io.saba.rperf.switchmodel.Policy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * {@code saba campaign --figure fig10-packet}: the scale study in the packet-level model on a small leaf-spine
 * ({@link PacketStudy}): the shared VL, a VL per application and Saba's tables on the same placements, beside the
 * fluid simulator on the same jobs. Progress to stderr, the table to stdout, CSV and summary to the output folder.
 */
final class PacketCampaignOptions {
    @Option(names = "--leaves", description = "fig10-packet: leaf switches (default 6)")
    Integer leaves;

    @Option(names = "--hosts-per-leaf", description = "fig10-packet: hosts per leaf, also the hosts a workload is "
            + "profiled on (default 6)")
    Integer hostsPerLeaf;

    @Option(names = "--per-host", description = "fig10-packet: job instances per host (default 1, the paper's one "
            + "workload per server)")
    Integer perHost;

    @Option(names = "--instances", description = "fig10-packet: instances per job (default: hosts per leaf)")
    Integer instances;

    @Option(names = "--time-scale", description = "fig10-packet, fig8-packet: simulated seconds per second of the "
            + "paper's workloads (default 1e-5: 60-300 s alone become 0.6-3 ms)")
    Double timeScale;

    @Option(names = "--seeds", description = "fig10-packet: placements, seeds --seed, --seed + 1, ... (default 5)")
    Integer seeds;

    @Option(names = "--vlarb-entries", description = "fig10-packet: entries of each port's VL arbitration table "
            + "(default 8)")
    Integer vlarbEntries;

    @Option(names = "--port-buffer-kib", description = "fig10-packet: each switch input port's buffer, split evenly "
            + "over the VLs a mode uses (default: 32 KiB per port and VL, the RPerf model's)")
    Integer portBufferKib;

    @Option(names = "--arbitration", description = "fig10-packet: output arbitration within a VL, rr or fcfs "
            + "(default rr)")
    String arbitration;

    @Option(names = "--separate-at", split = ",", description = "fig10-packet: the tiers of ports where the "
            + "separating modes write their tables, of nic, leaf-up, spine-down, leaf-down (default all: the whole "
            + "path); elsewhere one VL for all")
    List<String> separateAt;

    @Option(names = "--no-fluid", description = "fig10-packet: skip the fluid simulator's runs of the same jobs")
    boolean noFluid;

    @Option(names = "--schemes", split = ",", paramLabel = "SCHEME", description = "fig8-packet: what every setup "
            + "runs under, of shared, shared-cc, control, saba, saba-eq2, saba-equal, control-15, saba-spread, "
            + "saba-apps, saba-apps-equal, alone, fluid-max-min, fluid-saba, and the oracle saba-sized (default all "
            + "but the oracle; the shared VL always). A rerun on the same --out adds the schemes it lacks")
    List<String> schemes;

    @Option(names = "--congestion-control", paramLabel = "PRESET", description = "fig8-packet: the InfiniBand "
            + "congestion control of the shared-cc baseline, default or aggressive (docs/simulator.md)")
    String congestionControl;

    @Option(names = "--ack-every", paramLabel = "PACKETS", description = "fig8-packet and fig10-packet: a queue pair "
            + "asks for an ACK every PACKETS packets and at each message's end (default 256, what Linux's mlx4 driver "
            + "sets on the paper's ConnectX-3 HCAs; 1: an ACK per packet, as folders made before ACKs were coalesced)")
    Integer ackEvery;

    /** Packets per requested ACK: --ack-every, or the paper's HCAs' when not given. */
    int ackEvery() {
        if (ackEvery != null && ackEvery < 1) {
            throw new IllegalArgumentException("--ack-every must be 1 or more, got " + ackEvery);
        }
        return ackEvery != null ? ackEvery : ModelParams.CONNECTX3_ACK_EVERY;
    }

    @Option(names = "--workloads", paramLabel = "SHAPES", description = "fig8-packet: hibench (default: every "
            + "round an all-to-all shuffle) or recorded (rounds as the testbed records count them, LR and SVM through "
            + "their driver; no fluid schemes)")
    String workloads;

    /** fig8-packet's workload shapes. */
    WorkloadShapes fig8Shapes() {
        return workloads == null ? WorkloadShapes.HIBENCH : WorkloadShapes.parse(workloads);
    }

    /**
     * fig8-packet's schemes: all but the oracle unless --schemes names some (with recorded shapes, also not the fluid
     * ones).
     */
    java.util.Set<Fig8Scheme> fig8Schemes() {
        if (schemes == null) {
            java.util.Set<Fig8Scheme> all = EnumSet.allOf(Fig8Scheme.class);
            all.removeIf(s -> !s.byDefault());
            if (fig8Shapes() == WorkloadShapes.RECORDED) {
                all.remove(Fig8Scheme.FLUID_MAX_MIN);
                all.remove(Fig8Scheme.FLUID_SABA);
            }
            return all;
        }
        java.util.Set<Fig8Scheme> out = EnumSet.noneOf(Fig8Scheme.class);
        schemes.forEach(s -> out.add(Fig8Scheme.parse(s)));
        return out;
    }

    /** Options given that only apply to fig10-packet, for the refusal elsewhere. */
    List<String> given() {
        List<String> out = new ArrayList<>();
        Object[][] opts = {{leaves, "--leaves"}, {hostsPerLeaf, "--hosts-per-leaf"}, {perHost, "--per-host"},
            {instances, "--instances"}, {timeScale, "--time-scale"}, {seeds, "--seeds"},
            {vlarbEntries, "--vlarb-entries"}, {portBufferKib, "--port-buffer-kib"}, {arbitration, "--arbitration"},
            {separateAt, "--separate-at"}};
        for (Object[] o : opts) {
            if (o[0] != null) {
                out.add((String) o[1]);
            }
        }
        if (noFluid) {
            out.add("--no-fluid");
        }
        if (schemes != null) {
            out.add("--schemes");
        }
        if (congestionControl != null) {
            out.add("--congestion-control");
        }
        if (workloads != null) {
            out.add("--workloads");
        }
        if (ackEvery != null) {
            out.add("--ack-every");
        }
        return out;
    }

    PacketStudyConfig config(long seed, int queues, int oversubscription, ModelChoice model, int threads) {
        int hpl = hostsPerLeaf != null ? hostsPerLeaf : 6;
        List<Long> s = new ArrayList<>();
        int n = seeds != null ? seeds : 5;
        if (n < 1) {
            throw new IllegalArgumentException("--seeds must be ≥ 1, got " + n);
        }
        for (int i = 0; i < n; i++) {
            s.add(seed + i);
        }
        Policy policy = switch (arbitration == null ? "rr" : arbitration.toLowerCase(Locale.ROOT)) {
            case "rr" -> Policy.RR;
            case "fcfs" -> Policy.FCFS;
            default -> throw new IllegalArgumentException("--arbitration must be rr or fcfs, got " + arbitration);
        };
        if (queues < 1 || queues > 14) {
            throw new IllegalArgumentException("--queues must be 1..14 (InfiniBand has 15 data VLs), got " + queues);
        }
        Set<LeafSpine.Tier> tiers = EnumSet.noneOf(LeafSpine.Tier.class);
        for (String t : separateAt != null ? separateAt : List.of("nic", "leaf-up", "spine-down", "leaf-down")) {
            try {
                tiers.add(LeafSpine.Tier.valueOf(t.toUpperCase(Locale.ROOT).replace('-', '_')));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--separate-at takes nic, leaf-up, spine-down, leaf-down, not " + t);
            }
        }
        return new PacketStudyConfig(leaves != null ? leaves : 6, hpl, oversubscription, perHost != null ? perHost : 1,
                instances != null ? instances : hpl, timeScale != null ? timeScale : 1e-5, s, queues + 1,
                vlarbEntries != null ? vlarbEntries : 8, portBufferKib != null ? portBufferKib * 1024 : 0, policy,
                ackEvery(), tiers, model, !noFluid, threads);
    }

    /** Runs fig10-packet and returns its report. */
    String run(long seed, int queues, int oversubscription, ModelChoice model, int threads, Path dir) {
        PacketStudyConfig cfg = config(seed, queues, oversubscription, model, threads);
        OutputFolder.prepare(dir, "fig10-packet " + cfg.describe() + " seeds " + cfg.seeds()
                + (cfg.fluid() ? "" : " no-fluid"));
        System.err.println("fig10-packet: " + cfg.describe());
        PacketStudy.Result r = new PacketStudy(cfg).run(System.err);
        String report = PacketStudy.report(r) + "output in " + dir + "\n";
        OutputFolder.write(dir.resolve("fig10-packet.csv"), PacketStudy.csv(r));
        return report;
    }
}
