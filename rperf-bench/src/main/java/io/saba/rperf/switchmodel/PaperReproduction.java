package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs the model on the RPerf paper's §VII-VIII experiments and lays each beside the paper's figures.
 * Paper numbers are quoted from the text (medians / 99.9th percentiles in microseconds, Gbps); a dash
 * means the paper gives no number for that point.
 *
 * <p>BSGs are limited by {@link NicLimit#PAPER_CONNECTX4}, the sender rates the paper measured on its
 * hardware (one 4096 B BSG reaches 52.2 Gbps; small batched messages about 7.7 M/s); nothing in the model
 * is fitted to the latency figures being reproduced.
 */
public final class PaperReproduction {
    /** Experiment names accepted by {@link #run}. */
    public static final List<String> EXPERIMENTS =
            List.of("fcfs", "rr", "two-hop", "dedicated-sl", "gaming", "msg-size");

    private static final double NA = Double.NaN;
    private final long durationPs;
    private final long warmupPs;

    /** @param durationUs simulated measurement time per run, after a 200 µs warm-up */
    public PaperReproduction(long durationUs) {
        this.durationPs = durationUs * ModelParams.PS_PER_US;
        this.warmupPs = 200 * ModelParams.PS_PER_US;
    }

    /** Runs {@code name} ("all" for every experiment) and returns its tables. */
    public List<TextTable> run(String name) {
        Locale.setDefault(Locale.ROOT);
        List<TextTable> out = new ArrayList<>();
        for (String e : EXPERIMENTS) {
            if (name.equals("all") || name.equals(e)) {
                out.add(switch (e) {
                    case "fcfs" -> singleSwitch(Policy.FCFS);
                    case "rr" -> singleSwitch(Policy.RR);
                    case "two-hop" -> twoHop();
                    case "dedicated-sl" -> dedicatedSl();
                    case "gaming" -> gaming();
                    case "msg-size" -> messageSize();
                    default -> throw new IllegalStateException(e);
                });
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("unknown experiment " + name + "; one of " + EXPERIMENTS + " or all");
        }
        return out;
    }

    private MixedTrafficConfig base(int bsgs, Policy policy) {
        return MixedTrafficConfig.converged(bsgs, policy).withTiming(warmupPs, durationPs)
                .withBsgNic(NicLimit.PAPER_CONNECTX4);
    }

    private MixedTrafficResult run(MixedTrafficConfig c) {
        return new MixedTrafficExperiment(c).run();
    }

    /** Fig. 10 (simulator) and Fig. 7 (real switch): LSG RTT against N BSGs of 4096 B. */
    private TextTable singleSwitch(Policy policy) {
        boolean fcfs = policy == Policy.FCFS;
        double[][] paperSim = fcfs
                ? new double[][] {{0.4, 0.4}, {0.6, 0.6}, {4.5, 4.6}, {NA, NA}, {NA, NA}, {18.2, 18.3}}
                : new double[][] {{0.4, 0.4}, {0.6, 0.6}, {NA, NA}, {NA, NA}, {NA, NA}, {2.5, 2.6}};
        double[][] paperReal = {{NA, NA}, {0.6, 0.9}, {5.2, 5.7}, {10.7, 12.6}, {NA, NA}, {NA, NA}};
        double[] paperTotal = {NA, 52.2, 51.1, NA, NA, 48.4};
        ModelParams p = ModelParams.paperDefaults();
        double bufferUs = p.inputBufferBytes() * 8 / p.linkGbps() / 1e3;
        TextTable t = new TextTable(policy + ", one switch, LSG 64 B + N BSGs 4096 B (paper Fig. 10 sim, Fig. 7 real)",
                "N", "ours med", "ours p99.9", "paper sim med", "paper sim tail", "paper real med", "paper real tail",
                "N*32KiB/56G", "ours BSG total Gbps", "paper real total");
        for (int n = 0; n <= 5; n++) {
            MixedTrafficResult r = run(base(n, policy));
            t.row(n, r.lsgMedianUs(), r.lsgP999Us(), paperSim[n][0], paperSim[n][1], paperReal[n][0],
                    paperReal[n][1], n * bufferUs, n == 0 ? NA : r.totalGbps(), paperTotal[n]);
        }
        return t;
    }

    /** Fig. 11: two switches; the LSG shares the inter-switch link with two BSGs. */
    private TextTable twoHop() {
        TextTable t = new TextTable("Two hops, 5 BSGs (2 upstream with the LSG, 3 downstream) (paper Fig. 11 sim)",
                "policy", "ours med", "ours p99.9", "paper sim med", "paper sim tail", "ours one-hop med",
                "ours BSG Gbps (bsg1..5)", "ours LSG wait s1 / s2 med");
        double[][] paper = {{18.4, 18.5}, {14.5, 14.9}};
        Policy[] policies = {Policy.FCFS, Policy.RR};
        for (int i = 0; i < 2; i++) {
            MixedTrafficResult r = run(base(5, policies[i]).withTwoHop(true));
            MixedTrafficResult one = run(base(5, policies[i]));
            t.row(policies[i], r.lsgMedianUs(), r.lsgP999Us(), paper[i][0], paper[i][1], one.lsgMedianUs(),
                    perFlow(r), String.format(Locale.ROOT, "%.2f / %.2f", r.lsgSwitchWaitMedianUs(0),
                    r.lsgSwitchWaitMedianUs(1)));
        }
        return t;
    }

    /** Fig. 12/13: LSG on SL1 -> high-priority VL1, BSGs on SL0 -> low-priority VL0. */
    private TextTable dedicatedSl() {
        TextTable t = new TextTable("Dedicated SL/VL for the LSG, 5 BSGs, FCFS (paper Figs. 12-13, real switch)",
                "setup", "ours med", "ours p99.9", "paper med", "paper tail", "ours BSG total Gbps");
        MixedTrafficResult shared = run(base(5, Policy.FCFS));
        MixedTrafficResult dedicated = run(base(5, Policy.FCFS).withDedicatedVl(true, VlArbitration.UNLIMITED));
        t.row("shared SL/VL", shared.lsgMedianUs(), shared.lsgP999Us(), 20.2, 22.1, shared.totalGbps());
        t.row("dedicated SL1->VL1 high", dedicated.lsgMedianUs(), dedicated.lsgP999Us(), 0.7, 1.1,
                dedicated.totalGbps());
        return t;
    }

    /** Fig. 12/13 gaming: one of the five BSGs sends 256 B messages on the latency SL. */
    private TextTable gaming() {
        TextTable t = new TextTable("Gaming: 4 honest BSGs (SL0) + 1 pretend LSG 256 B on SL1/VL1 high "
                + "(paper: pretend 21.5 Gbps, honest 6.7-7 each, LSG 8.5 / 9.1 us)",
                "VLArb high limit", "pretend NIC", "ours pretend Gbps", "ours honest Gbps (each)", "ours LSG med",
                "ours LSG p99.9");
        int[] limits = {0, 1, 4, VlArbitration.UNLIMITED};
        for (int limit : limits) {
            row(t, limit, 0);
        }
        row(t, VlArbitration.UNLIMITED, NicLimit.PAPER_CONNECTX4.maxMpps());
        return t;
    }

    private void row(TextTable t, int limit, double mpps) {
        long gap = mpps > 0 ? Math.round(1e6 / mpps) : 0;
        MixedTrafficResult r = run(base(4, Policy.FCFS).withDedicatedVl(true, limit).withPretend(1, 256, gap));
        double honestMin = Double.MAX_VALUE;
        double honestMax = 0;
        for (MixedTrafficResult.Flow f : r.bandwidth()) {
            if (f.name().startsWith("bsg")) {
                honestMin = Math.min(honestMin, f.gbps());
                honestMax = Math.max(honestMax, f.gbps());
            }
        }
        t.row(limit == VlArbitration.UNLIMITED ? "255 (unlimited)" : limit + " x 4 KiB",
                mpps > 0 ? String.format("%.2f Mpps", mpps) : "line rate", r.gbps("pretend1"),
                String.format("%.2f-%.2f", honestMin, honestMax), r.lsgMedianUs(), r.lsgP999Us());
    }

    /** Figs. 8-9: five BSGs with smaller (batched) messages. */
    private TextTable messageSize() {
        TextTable t = new TextTable("5 BSGs with message size S, FCFS (paper Figs. 8-9, real switch)",
                "S (B)", "ours med", "ours p99.9", "paper med", "paper tail", "ours util %", "paper util %");
        int[] sizes = {64, 128, 256, 512, 1024, 2048, 4096};
        double[][] paper = {{0.4, 0.6, 35}, {0.6, 0.9, 70}, {NA, NA, NA}, {20.0, 20.6, 88}, {NA, NA, NA},
                {NA, NA, NA}, {26.3, 28.2, 93}};
        for (int i = 0; i < sizes.length; i++) {
            MixedTrafficResult r = run(base(5, Policy.FCFS).withBsgPayload(sizes[i]));
            t.row(sizes[i], r.lsgMedianUs(), r.lsgP999Us(), paper[i][0], paper[i][1],
                    100 * r.totalGbps() / 56.0, paper[i][2]);
        }
        return t;
    }

    private static String perFlow(MixedTrafficResult r) {
        StringBuilder sb = new StringBuilder();
        for (MixedTrafficResult.Flow f : r.bandwidth()) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format("%.1f", f.gbps()));
        }
        return sb.toString();
    }
}
