package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A fabric under construction and then under simulation: switches, hosts, the links between them, the
 * generators on the hosts, one clock. Build it with the add/link methods, then {@link #run}.
 */
public final class Network {
    private final ModelParams params;
    private final EventQueue clock = new EventQueue();
    private final int vls;
    private final int[] sl2vl;
    private final List<HostNode> hosts = new ArrayList<>();
    private final List<SwitchNode> switches = new ArrayList<>();
    private final List<Generator> generators = new ArrayList<>();
    private Measurements stats = new Measurements(0);
    private long nextPacketId;
    private CongestionControl congestionControl;
    private DeliveryListener deliveryListener = (p, t) -> { };

    /** Sees every data packet a destination receives, in order: for tests and traces. */
    @FunctionalInterface
    public interface DeliveryListener {
        void delivered(Packet p, long now);
    }

    /** Turns on InfiniBand congestion control in every switch and queue pair (before any traffic). */
    public void enableCongestionControl(CongestionControl cc) {
        this.congestionControl = cc;
    }

    /** The congestion control in force, or null when it is off. */
    CongestionControl congestionControl() {
        return congestionControl;
    }

    public void onDelivery(DeliveryListener l) {
        this.deliveryListener = l;
    }

    void notifyDelivered(Packet p, long now) {
        deliveryListener.delivered(p, now);
    }

    /**
     * @param vls   VLs per port (buffers per input port)
     * @param sl2vl SL-to-VL table used by every node (index = SL)
     */
    public Network(ModelParams params, int vls, int[] sl2vl) {
        this.params = params;
        this.vls = vls;
        this.sl2vl = sl2vl.clone();
        for (int vl : sl2vl) {
            if (vl < 0 || vl >= vls) {
                throw new IllegalArgumentException("SL2VL maps to VL " + vl + " but ports have " + vls + " VLs");
            }
        }
    }

    /** One VL, every SL on it: no QoS. */
    public static Network singleVl(ModelParams params) {
        int[] map = new int[16];
        return new Network(params, 1, map);
    }

    public HostNode addHost(String name, VlArbitration vlArb) {
        HostNode h = new HostNode(name, this, hosts.size(), vls, sl2vl, vlArb);
        hosts.add(h);
        return h;
    }

    public SwitchNode addSwitch(String name, int ports, Policy policy, VlArbitration vlArb) {
        SwitchNode s = new SwitchNode(name, this, ports, vls, sl2vl, policy, vlArb);
        switches.add(s);
        return s;
    }

    /** A full-duplex link between port {@code pa} of {@code a} and port {@code pb} of {@code b}. */
    public void link(Node a, int pa, Node b, int pb) {
        a.output(pa).connect(b, pb);
        b.output(pb).connect(a, pa);
    }

    public LatencyGenerator addLsg(String name, HostNode host, HostNode dst, int sl, int payload) {
        LatencyGenerator g = new LatencyGenerator(generators.size(), name, host, dst.hostId, sl, payload);
        generators.add(g);
        host.addGenerator(g);
        return g;
    }

    /** A queue pair from {@code host} to {@code dst} on service level {@code sl}, idle until posted to. */
    public QueuePair addQueuePair(String name, HostNode host, HostNode dst, int sl) {
        if (sl < 0 || sl >= sl2vl.length) {
            throw new IllegalArgumentException("SL " + sl + " outside the SL2VL table (" + sl2vl.length + " SLs)");
        }
        QueuePair q = new QueuePair(generators.size(), name, host, dst.hostId, sl, params.mtuBytes());
        generators.add(q);
        host.addGenerator(q);
        return q;
    }

    public BandwidthGenerator addBsg(String name, HostNode host, HostNode dst, int sl, int payload, long minGapPs) {
        if (payload > params.mtuBytes()) {
            throw new IllegalArgumentException("messages are one packet here: payload " + payload + " > MTU");
        }
        BandwidthGenerator g = new BandwidthGenerator(generators.size(), name, host, dst.hostId, sl, payload,
                minGapPs);
        generators.add(g);
        host.addGenerator(g);
        return g;
    }

    /** Runs the simulation from time 0 to {@code endPs}, measuring from {@code warmupPs} on. */
    public Measurements run(long warmupPs, long endPs) {
        stats = new Measurements(warmupPs);
        clock.at(0, () -> generators.forEach(g -> g.start(0)));
        clock.runUntil(endPs);
        return stats;
    }

    /**
     * Runs from time 0 until nothing is left to happen: every generator idle and every packet delivered (a fabric
     * whose generators never stop, such as BSGs, never gets there: use {@link #run}). Returns the last event's
     * time. Events scheduled with {@link #schedule} before the call run at their times.
     */
    public long runToIdle() {
        stats = new Measurements(0);
        clock.at(0, () -> generators.forEach(g -> g.start(0)));
        return clock.runAll();
    }

    /** Runs {@code action} at simulated time {@code atPs} (not before now): how a traffic driver computes. */
    public void schedule(long atPs, Runnable action) {
        clock.at(atPs, action);
    }

    /** Current simulated time, picoseconds. */
    public long now() {
        return clock.now();
    }

    /** Bytes still waiting in switch input buffers: 0 after a run that drained, more after a deadlock. */
    public long bufferedBytes() {
        long sum = 0;
        for (SwitchNode s : switches) {
            sum += s.bufferedBytes();
        }
        return sum;
    }

    Generator generator(int flow) {
        return generators.get(flow);
    }

    Packet newPacket(Packet.Kind kind, int flow, int src, int dst, int sl, int payload, int wire, long postedAt) {
        return new Packet(nextPacketId++, kind, flow, src, dst, sl, payload, wire, postedAt);
    }

    public ModelParams params() {
        return params;
    }

    EventQueue clock() {
        return clock;
    }

    Measurements stats() {
        return stats;
    }

    public List<Generator> generators() {
        return List.copyOf(generators);
    }

    @Override
    public String toString() {
        return "Network(" + hosts.size() + " hosts, " + switches.size() + " switches, sl2vl "
                + Arrays.toString(sl2vl) + ")";
    }
}
