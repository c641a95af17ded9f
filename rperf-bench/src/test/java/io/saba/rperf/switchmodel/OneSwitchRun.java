package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Queue pairs sending whole messages across one switch of five hosts (RR, one VL), run until idle: what the
 * hand-worked cases of congestion control and ACK coalescing measure.
 *
 * @param done   each flow's last delivery, in seconds, by name ("src->dst")
 * @param acks   ACKs each flow's sender received, by name
 * @param marked data packets delivered with FECN set
 */
record OneSwitchRun(Map<String, Double> done, Map<String, Long> acks, int marked) {
    static final long PACKET = 4096;

    /**
     * @param cc    congestion control, or null for none
     * @param flows each {src, dst, messages, packets per message}; a flow's messages go one after the other
     */
    static OneSwitchRun run(ModelParams params, CongestionControl cc, List<int[]> flows) {
        LeafSpine.Fabric f = new LeafSpine(1, 5, 1).build(params, Policy.RR, 1);
        Network net = f.network();
        if (cc != null) {
            net.enableCongestionControl(cc);
        }
        Map<Integer, String> names = new HashMap<>();
        Map<Integer, long[]> left = new HashMap<>();
        Map<String, Double> done = new HashMap<>();
        List<QueuePair> pairs = new ArrayList<>();
        int[] marked = {0};
        for (int[] fl : flows) {
            QueuePair q = net.addQueuePair(fl[0] + "->" + fl[1], f.hosts().get(fl[0]), f.hosts().get(fl[1]), 0);
            pairs.add(q);
            names.put(q.flow(), q.name());
            left.put(q.flow(), new long[] {fl[2] * fl[3] * PACKET});
            long bytes = fl[3] * PACKET;
            for (int m = 0; m < fl[2]; m++) {
                net.schedule(0, () -> postWhenIdle(net, q, bytes));
            }
        }
        net.onDelivery((p, t) -> {
            marked[0] += p.fecn ? 1 : 0;
            long[] l = left.get(p.flow());
            l[0] -= p.payloadBytes;
            if (l[0] == 0) {
                done.put(names.get(p.flow()), t / 1e12);
            }
        });
        net.runToIdle();
        Map<String, Long> acks = new HashMap<>();
        for (QueuePair q : pairs) {
            acks.put(q.name(), net.stats().acknowledgements(q.flow()));
        }
        return new OneSwitchRun(done, acks, marked[0]);
    }

    /** Posts {@code bytes} as a message of its own once {@code q} has sent everything before it. */
    private static void postWhenIdle(Network net, QueuePair q, long bytes) {
        if (q.idle()) {
            q.post(bytes);
        } else {
            net.schedule(net.now() + 1_000, () -> postWhenIdle(net, q, bytes));
        }
    }
}
