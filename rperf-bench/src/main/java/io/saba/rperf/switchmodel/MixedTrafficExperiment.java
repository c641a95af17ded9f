package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds the paper's topologies for a {@link MixedTrafficConfig}, runs them, and collects the result.
 *
 * <p>One switch: port 0 the destination, port 1 the LSG, then one port per BSG and pretend LSG.
 * Two hops (§VIII-B): the upstream switch S1 holds the LSG and the first two BSGs, its port 0 goes to the
 * downstream switch S2, which holds the remaining BSGs and the destination (port 0).
 */
public final class MixedTrafficExperiment {
    static final int BULK_SL = 0;
    static final int LATENCY_SL = 1;

    private final MixedTrafficConfig cfg;

    public MixedTrafficExperiment(MixedTrafficConfig cfg) {
        this.cfg = cfg;
    }

    public MixedTrafficResult run() {
        int[] sl2vl = new int[16];
        int vls = 1;
        VlArbitration arb = null;
        if (cfg.dedicatedVl()) {
            vls = 2;
            sl2vl[LATENCY_SL] = 1;
            arb = VlArbitration.latencyVlHigh(cfg.highLimit());
        }
        Network net = new Network(cfg.params(), vls, sl2vl);
        int latencySl = cfg.dedicatedVl() ? LATENCY_SL : BULK_SL;
        // pretend LSGs always claim the latency SL; without a dedicated VL that is just SL1 on VL0
        int pretendSl = LATENCY_SL;

        HostNode dst = net.addHost("dst", arb);
        HostNode lsgHost = net.addHost("lsg", arb);
        List<HostNode> senders = new ArrayList<>();
        List<String> bwNames = new ArrayList<>();
        for (int i = 0; i < cfg.bsgs(); i++) {
            HostNode h = net.addHost("bsg" + (i + 1), arb);
            long gap = cfg.bsgNic().minGapPs(cfg.params().dataWireBytes(cfg.bsgPayload()));
            net.addBsg("bsg" + (i + 1), h, dst, BULK_SL, cfg.bsgPayload(), gap);
            senders.add(h);
            bwNames.add("bsg" + (i + 1));
        }
        for (int i = 0; i < cfg.pretendLsgs(); i++) {
            HostNode h = net.addHost("pretend" + (i + 1), arb);
            net.addBsg("pretend" + (i + 1), h, dst, pretendSl, cfg.pretendPayload(), cfg.pretendGapPs());
            senders.add(h);
            bwNames.add("pretend" + (i + 1));
        }
        LatencyGenerator lsg = net.addLsg("lsg", lsgHost, dst, latencySl, cfg.lsgPayload());

        if (!cfg.twoHop()) {
            SwitchNode sw = net.addSwitch("sw", 2 + senders.size(), cfg.policy(), arb);
            net.link(dst, 0, sw, 0);
            net.link(lsgHost, 0, sw, 1);
            sw.route(dst.hostId, 0).route(lsgHost.hostId, 1);
            for (int i = 0; i < senders.size(); i++) {
                net.link(senders.get(i), 0, sw, 2 + i);
                sw.route(senders.get(i).hostId, 2 + i);
            }
        } else {
            int upstreamSenders = Math.min(2, senders.size());
            int downstreamSenders = senders.size() - upstreamSenders;
            SwitchNode s1 = net.addSwitch("s1", 2 + upstreamSenders, cfg.policy(), arb);
            SwitchNode s2 = net.addSwitch("s2", 2 + downstreamSenders, cfg.policy(), arb);
            net.link(s1, 0, s2, 1);
            net.link(dst, 0, s2, 0);
            net.link(lsgHost, 0, s1, 1);
            s1.route(dst.hostId, 0).route(lsgHost.hostId, 1);
            s2.route(dst.hostId, 0).route(lsgHost.hostId, 1);
            for (int i = 0; i < senders.size(); i++) {
                HostNode h = senders.get(i);
                if (i < upstreamSenders) {
                    net.link(h, 0, s1, 2 + i);
                    s1.route(h.hostId, 2 + i);
                    s2.route(h.hostId, 1);
                } else {
                    int port = 2 + i - upstreamSenders;
                    net.link(h, 0, s2, port);
                    s2.route(h.hostId, port);
                }
            }
        }

        long end = cfg.warmupPs() + cfg.durationPs();
        Measurements stats = net.run(cfg.warmupPs(), end);
        double seconds = cfg.durationPs() / 1e12;
        List<MixedTrafficResult.Flow> flows = new ArrayList<>();
        for (Generator g : net.generators()) {
            if (g instanceof BandwidthGenerator) {
                flows.add(new MixedTrafficResult.Flow(g.name(), stats.deliveredBytes(g.flow()) * 8 / seconds / 1e9));
            }
        }
        return new MixedTrafficResult(cfg, stats.rtt(lsg.flow()), flows, stats.switchWaits(lsg.flow()));
    }
}
