package io.saba.harness.bench;

import io.saba.core.model.ModelChoice;
import io.saba.harness.packet.PacketStudy;
import io.saba.harness.packet.PacketStudyConfig;
import io.saba.harness.packet.RoundDriver;
import io.saba.harness.packet.VlMode;
import io.saba.harness.packet.VlSetup;
import io.saba.harness.sim.workload.JobSpec;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.Policy;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The packet engine's speed on a fixed reference study: data packets simulated per CPU-second of the thread that
 * runs them. The study is the packet study's default fabric (36 hosts, 6 leaves × 6, 1:1) with three workloads per
 * host (18 jobs of 6 instances, seed 1, time scale 1e-5), run on one shared VL and with a VL per application, both
 * under round robin: the runs of {@code --figure fig10-packet} that carry most of its packets.
 *
 * <p>Only the thread's own CPU is counted (ThreadMXBean), so builds and other work on a shared machine move it less
 * than wall time; the first passes are untimed so that the JIT has compiled the engine. It prints every pass, the
 * median and range, and a checksum of every job's completion time in picoseconds, so two builds run side by side
 * ({@code scripts/packet-engine-bench.sh}) can be seen to compute the same results.
 *
 * <p>Usage: {@code PacketEngineBench [--passes N] [--warmup N] [--ack-every K]} (defaults 5, 2 and 1: an ACK per
 * packet; K &gt; 1 coalesces ACKs, {@link io.saba.rperf.switchmodel.ModelParams#ackEvery}, another model with its own
 * checksum).
 */
public final class PacketEngineBench {
    private PacketEngineBench() {
    }

    /** The reference study's fabric and placement, a queue pair asking for an ACK every {@code ackEvery} packets. */
    static PacketStudyConfig reference(int ackEvery) {
        return new PacketStudyConfig(6, 6, 1, 3, 6, 1e-5, List.of(1L), PacketStudyConfig.SABA_QUEUES + 1, 8, 0,
                Policy.RR, ackEvery, PacketStudyConfig.ALL_TIERS, ModelChoice.AUTO, false, 1);
    }

    /** The whole number after option {@code args[i - 1]}. */
    private static int value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        try {
            return Integer.parseInt(args[i]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(args[i - 1] + " takes a whole number, got '" + args[i] + "'");
        }
    }

    /** One pass: both modes once; returns {packets, checksum}. */
    static long[] pass(PacketStudyConfig cfg, List<JobSpec> jobs) {
        long packets = 0;
        long checksum = 1;
        for (VlMode mode : List.of(VlMode.SHARED, VlMode.VL_PER_APPLICATION)) {
            LeafSpine.Fabric f = cfg.shape().build(cfg.params(), cfg.policy(), cfg.vls());
            Map<String, Integer> sl = new VlSetup(cfg.vls(), cfg.tableEntries(), null).apply(mode, f, jobs).slOf();
            RoundDriver.Result r = new RoundDriver(f, jobs, sl).run();
            packets += r.packets();
            for (Map.Entry<String, Double> e : new TreeMap<>(r.completionSeconds()).entrySet()) {
                checksum = 31 * checksum + e.getKey().hashCode();
                checksum = 31 * checksum + Math.round(e.getValue() * 1e12);
            }
        }
        return new long[] {packets, checksum};
    }

    public static void main(String[] args) {
        int passes = 5;
        int warmup = 2;
        int ackEvery = 1;
        PacketStudyConfig cfg;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--passes" -> passes = value(args, ++i);
                    case "--warmup" -> warmup = value(args, ++i);
                    case "--ack-every" -> ackEvery = value(args, ++i);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
            cfg = reference(ackEvery);
        } catch (IllegalArgumentException e) {
            System.err.println("PacketEngineBench: " + e.getMessage()
                    + " (PacketEngineBench [--passes N] [--warmup N] [--ack-every K])");
            System.exit(2);
            return;
        }
        List<JobSpec> jobs = new PacketStudy(cfg).draw(1);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        System.out.println("packet engine: " + cfg.describe() + "; shared VL and VL per application");
        long checksum = 0;
        List<Double> rates = new ArrayList<>();
        for (int i = 0; i < warmup + passes; i++) {
            long cpu0 = mx.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            long[] r = pass(cfg, jobs);
            double cpu = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
            double wall = (System.nanoTime() - wall0) / 1e9;
            if (i > 0 && r[1] != checksum) {
                throw new IllegalStateException("the same study gave another result: checksum " + r[1] + " after "
                        + checksum);
            }
            checksum = r[1];
            boolean timed = i >= warmup;
            if (timed) {
                rates.add(r[0] / cpu);
            }
            System.out.printf(Locale.ROOT, "%s %d: %d packets, CPU %.3f s, wall %.3f s, %.0f packets per CPU-second%n",
                    timed ? "pass" : "warm-up", timed ? i - warmup + 1 : i + 1, r[0], cpu, wall, r[0] / cpu);
        }
        List<Double> sorted = new ArrayList<>(rates);
        sorted.sort(null);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        System.out.printf(Locale.ROOT, "packets per CPU-second: median %.0f (%.0f-%.0f, %d passes); results checksum "
                + "%d%n", median, sorted.get(0), sorted.get(sorted.size() - 1), sorted.size(), checksum);
    }
}
