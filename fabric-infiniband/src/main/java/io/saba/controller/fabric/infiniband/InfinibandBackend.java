package io.saba.controller.fabric.infiniband;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saba's queues as InfiniBand virtual lanes, written into switch ports with Set SMPs.
 *
 * <p>Per switch output port it manages: the SL→VL tables (one per input port, {@link Sl2Vl}) when the port's
 * level→queue map changes, and the VL arbitration tables ({@link VlArbPlan}: all weight in the low-priority table,
 * the high-priority table written empty) when its weights change. Queue q is VL q; queue 0 (level 0, everything
 * that is not Saba's) is VL 0 and holds 1 − C_Saba. Every Set's answer is compared with what was written.
 *
 * <p>Before the first write to a port its tables are read and kept, in {@link PortOriginals} (a file beside the
 * journal, durable before the write); {@link #release} and {@link #close} write those back, so a port returns to
 * exactly what the subnet manager (or the switch default) had. A port with a saved original (a controller before
 * this one crashed while it held Saba's tables) is adopted with that original, not with what it holds now, and
 * {@link #restoreLeftovers} ({@code saba fabric restore}) writes every saved original back. {@link #verify}
 * reads every managed port again and reports drift (someone else, e.g. OpenSM with QoS on, rewrote a table);
 * with {@code repair} it writes Saba's tables back.
 *
 * <p>Errors (no umad, a timeout, a port that refuses or answers with other contents) fail that port only; it is
 * put back to what it had before the call, and the result names the port and the reason. Calls are serialised.
 */
public final class InfinibandBackend implements FabricBackend {
    private static final Logger LOG = LoggerFactory.getLogger(InfinibandBackend.class);

    /** How shares are computed from table weights (see {@link VlArbPlan}). */
    public enum PacketModel { MTU, BYTES }

    private final Smp smp;
    private final Supplier<IbSubnet> discovery;
    private final PacketModel packetModel;
    private final boolean repair;
    private final long verifySeconds;
    /** When {@link #verify} last ran and how many ports it read (null, 0 before the first). */
    private Instant lastVerified;
    private int portsVerified;
    private final Map<PortId, Managed> managed = new TreeMap<>();
    private final Map<PortId, String> drift = new TreeMap<>();
    private final ScheduledExecutorService verifier;
    private PortOriginals originals = PortOriginals.inMemory();
    private IbSubnet fabric;
    private long discoveredNanos;
    /** Least time between two discoveries triggered by unknown switch names (a typo must not rediscover per push). */
    private static final long REDISCOVER_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** A managed port: where it is, what it had, and what Saba wrote. */
    private static final class Managed {
        final int lid;
        final int port;
        final int inputs;
        final PortCaps caps;
        final Tables original;
        Tables written;

        Managed(int lid, int port, int inputs, PortCaps caps, Tables original) {
            this.lid = lid;
            this.port = port;
            this.inputs = inputs;
            this.caps = caps;
            this.original = original;
        }
    }

    /** The tables of one output port: SL→VL per input port (0..n), low and high arbitration blocks. */
    record Tables(Map<Integer, byte[]> sl2vl, byte[][] low, byte[][] high, VlArbPlan plan) {
        /** "sl2vl 0=HEX 1=HEX …; low HEX HEX; high HEX HEX": what {@link PortOriginals} keeps. */
        String encode() {
            StringBuilder b = new StringBuilder("sl2vl");
            sl2vl.forEach((in, t) -> b.append(' ').append(in).append('=').append(HEX.formatHex(t)));
            b.append("; low");
            for (byte[] block : low) {
                b.append(' ').append(HEX.formatHex(block));
            }
            b.append("; high");
            for (byte[] block : high) {
                b.append(' ').append(HEX.formatHex(block));
            }
            return b.toString();
        }

        static Tables decode(String text) {
            String[] parts = text.split(";");
            if (parts.length != 3) {
                throw new IllegalArgumentException("saved tables '" + text + "' are not 'sl2vl …; low …; high …'");
            }
            Map<Integer, byte[]> sl2vl = new TreeMap<>();
            for (String kv : words(parts[0], "sl2vl")) {
                int eq = kv.indexOf('=');
                sl2vl.put(Integer.parseInt(kv.substring(0, eq)), HEX.parseHex(kv.substring(eq + 1)));
            }
            return new Tables(sl2vl, blocks(parts[1], "low"), blocks(parts[2], "high"), null);
        }

        private static List<String> words(String part, String head) {
            List<String> w = new java.util.ArrayList<>(List.of(part.strip().split("\\s+")));
            if (w.isEmpty() || !w.remove(0).equals(head)) {
                throw new IllegalArgumentException("saved tables: expected '" + head + "' in '" + part + "'");
            }
            return w;
        }

        private static byte[][] blocks(String part, String head) {
            return words(part, head).stream().map(HEX::parseHex).toArray(byte[][]::new);
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    /**
     * @param smp            the SMP channel (owned: closed by {@link #close})
     * @param discovery      finds switches' LIDs by name (re-run when a name is unknown)
     * @param verifySeconds  period of the drift check, 0 for none
     * @param repair         rewrite Saba's tables where drift is found
     */
    public InfinibandBackend(Smp smp, Supplier<IbSubnet> discovery, PacketModel packetModel, long verifySeconds,
                             boolean repair) {
        this.smp = smp;
        this.discovery = discovery;
        this.packetModel = packetModel;
        this.repair = repair;
        this.verifySeconds = verifySeconds;
        if (verifySeconds > 0) {
            verifier = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "saba-ib-verify");
                t.setDaemon(true);
                return t;
            });
            verifier.scheduleWithFixedDelay(() -> {
                try {
                    verify();
                } catch (RuntimeException e) {
                    LOG.warn("VL table verification failed: {}", e.getMessage());
                }
            }, verifySeconds, verifySeconds, TimeUnit.SECONDS);
        } else {
            verifier = null;
        }
    }

    @Override
    public String name() {
        return "infiniband";
    }

    @Override
    public synchronized ApplyResult apply(Collection<PortAllocation> changed) {
        Set<PortId> applied = new HashSet<>();
        Map<PortId, String> failed = new HashMap<>();
        for (PortAllocation a : changed) {
            try {
                applyOne(a);
                applied.add(a.port());
            } catch (RuntimeException e) {
                String why = e.getMessage() + restore(a.port());
                LOG.warn("port {} keeps its previous configuration: {}", a.port(), why);
                failed.put(a.port(), why);
            }
        }
        return new ApplyResult(applied, failed);
    }

    private void applyOne(PortAllocation a) {
        Managed known = managed.get(a.port());
        Managed m = known != null ? known : adopt(a.port());
        double[] q = a.queueWeights();
        double[] weights = new double[m.caps.operVls()];
        for (int i = 0; i < q.length; i++) {
            if (q[i] > 0 && i >= m.caps.operVls()) {
                throw new IllegalArgumentException("port " + a.port() + " runs " + m.caps.operVls()
                        + " data VLs (OperVLs) but the allocation gives queue " + i + " weight " + q[i]);
            }
            if (i < weights.length) {
                weights[i] = q[i];
            }
        }
        a.queueOfLevel().forEach((level, queue) -> {
            if (queue >= m.caps.operVls()) {
                throw new IllegalArgumentException("port " + a.port() + " runs " + m.caps.operVls()
                        + " data VLs but level " + level + " maps to queue " + queue);
            }
        });
        int grain = packetModel == PacketModel.MTU && m.caps.mtuBytes() > 0 ? m.caps.mtuBytes() / 64 : 1;
        VlArbPlan plan = VlArbPlan.of(weights, m.caps.lowCap(), grain);
        byte[] sl2vl = Sl2Vl.encode(a.queueOfLevel());
        Map<Integer, byte[]> sl2vlAll = new TreeMap<>();
        for (int in = 0; in <= m.inputs; in++) {
            sl2vlAll.put(in, sl2vl);
        }
        Tables want = new Tables(sl2vlAll, plan.lowBlocks(PortCaps.blocks(m.caps.lowCap())),
                new byte[PortCaps.blocks(m.caps.highCap())][Smp.DATA_BYTES], plan);
        write(m, want, m.written);
        m.written = want;
        drift.remove(a.port());
        LOG.info("port {} (lid {} port {}): SL→VL [{}], VLArb low {} (max share error {})", a.port(), m.lid,
                m.port, Sl2Vl.describe(sl2vl), plan.entries(), String.format("%.4f", plan.maxShareError()));
    }

    @Override
    public synchronized void keepOriginalsIn(PortOriginals store) {
        originals = store;
    }

    /**
     * Finds the port's switch, reads its capabilities and takes its original tables: the saved ones if a controller
     * before this one wrote here and did not give them back, else what it holds now, saved before anything is
     * written.
     */
    private Managed adopt(PortId p) {
        Managed found = locatePort(p, null);
        if (found.caps.operVls() < 2 || found.caps.lowCap() < 1) {
            throw new IllegalStateException("port " + p + " cannot separate traffic: " + found.caps.operVls()
                    + " operational VLs, low-priority table capacity " + found.caps.lowCap());
        }
        Optional<String> saved = originals.get(name(), p);
        Tables original;
        if (saved.isPresent()) {
            original = Tables.decode(saved.get());
            LOG.warn("port {}: its original tables come from {}: a controller before this one changed them and did "
                    + "not give them back", p, originals.file());
        } else {
            original = read(found);
            originals.put(name(), p, original.encode());
        }
        Managed out = new Managed(found.lid, found.port, found.inputs, found.caps, original);
        managed.put(p, out);
        return out;
    }

    /** The port's switch LID, its input ports and capabilities, with {@code original} as its original tables. */
    private Managed locatePort(PortId p, Tables original) {
        IbSubnet.Node sw = locate(p.node());
        if (p.port() < 1 || p.port() > sw.ports()) {
            throw new IllegalArgumentException("switch " + p.node() + " has ports 1.." + sw.ports() + ", not " + p.port());
        }
        PortCaps caps = PortCaps.parse(smp.get(sw.lid(), Smp.ATTR_PORT_INFO, p.port()));
        return new Managed(sw.lid(), p.port(), sw.ports(), caps, original);
    }

    private IbSubnet.Node locate(String name) {
        IbSubnet.Node known = fabric == null ? null : fabric.switchNamed(name);
        if (fabric == null || ((known == null || known.lid() <= 0)
                && System.nanoTime() - discoveredNanos > REDISCOVER_NANOS)) {
            discoveredNanos = System.nanoTime();
            // the first call, a switch we have not seen, or one seen before the subnet manager gave it a LID
            fabric = discovery.get();
        }
        IbSubnet.Node sw = fabric.switchNamed(name);
        if (sw == null) {
            throw new IllegalArgumentException("no switch named '" + name + "' in the subnet");
        }
        if (sw.lid() <= 0) {
            throw new IllegalStateException("switch " + name + " has no LID yet (is the subnet manager running?)");
        }
        return sw;
    }

    private Tables read(Managed m) {
        Map<Integer, byte[]> sl2vl = new TreeMap<>();
        for (int in = 0; in <= m.inputs; in++) {
            sl2vl.put(in, Arrays.copyOf(smp.get(m.lid, Smp.ATTR_SL_TO_VL, (in << 8) | m.port), 8));
        }
        byte[][] low = new byte[PortCaps.blocks(m.caps.lowCap())][];
        for (int b = 0; b < low.length; b++) {
            low[b] = smp.get(m.lid, Smp.ATTR_VL_ARBITRATION, ((1 + b) << 16) | m.port);
        }
        byte[][] high = new byte[PortCaps.blocks(m.caps.highCap())][];
        for (int b = 0; b < high.length; b++) {
            high[b] = smp.get(m.lid, Smp.ATTR_VL_ARBITRATION, ((3 + b) << 16) | m.port);
        }
        return new Tables(sl2vl, low, high, null);
    }

    /** Writes what differs from {@code before} (everything when null) and checks each answer. */
    private void write(Managed m, Tables want, Tables before) {
        for (Map.Entry<Integer, byte[]> e : want.sl2vl().entrySet()) {
            byte[] prev = before == null ? null : before.sl2vl().get(e.getKey());
            if (prev == null || !Arrays.equals(Arrays.copyOf(prev, 8), Arrays.copyOf(e.getValue(), 8))) {
                int mod = (e.getKey() << 8) | m.port;
                byte[] payload = Arrays.copyOf(e.getValue(), Smp.DATA_BYTES);
                check(smp.set(m.lid, Smp.ATTR_SL_TO_VL, mod, payload), payload, 8, "SL→VL (input port "
                        + e.getKey() + ")", m);
            }
        }
        writeBlocks(m, want.low(), before == null ? null : before.low(), 1, m.caps.lowCap(), "low VLArb");
        writeBlocks(m, want.high(), before == null ? null : before.high(), 3, m.caps.highCap(), "high VLArb");
    }

    private void writeBlocks(Managed m, byte[][] want, byte[][] before, int firstBlock, int capacity, String what) {
        for (int b = 0; b < want.length; b++) {
            int entries = Math.min(32, capacity - 32 * b);
            if (before != null && Arrays.equals(Arrays.copyOf(before[b], 2 * entries),
                    Arrays.copyOf(want[b], 2 * entries))) {
                continue;
            }
            byte[] got = smp.set(m.lid, Smp.ATTR_VL_ARBITRATION, ((firstBlock + b) << 16) | m.port, want[b]);
            check(got, want[b], 2 * entries, what + " block " + (firstBlock + b), m);
        }
    }

    private static void check(byte[] got, byte[] want, int bytes, String what, Managed m) {
        if (!Arrays.equals(Arrays.copyOf(got, bytes), Arrays.copyOf(want, bytes))) {
            throw new SmpException("lid " + m.lid + " port " + m.port + " answered a different " + what
                    + " than was written");
        }
    }

    /** Puts a port back to Saba's last tables (or the original ones); returns a note for the error message. */
    private String restore(PortId p) {
        Managed m = managed.get(p);
        if (m == null) {
            return "";
        }
        try {
            write(m, m.written != null ? m.written : m.original, null);
            if (m.written == null) {
                managed.remove(p);
                originals.remove(name(), p);
            }
            return " (previous tables restored)";
        } catch (RuntimeException e) {
            return " (restoring the previous tables failed too: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized ApplyResult release(Set<PortId> ports) {
        Set<PortId> done = new HashSet<>();
        Map<PortId, String> failed = new HashMap<>();
        for (PortId p : ports) {
            Managed m = managed.get(p);
            if (m == null) {
                done.add(p);
                continue;
            }
            try {
                write(m, m.original, m.written);
                managed.remove(p);
                originals.remove(name(), p);
                drift.remove(p);
                done.add(p);
                LOG.info("port {} back to its original SL→VL and VL arbitration tables", p);
            } catch (RuntimeException e) {
                failed.put(p, e.getMessage());
            }
        }
        return new ApplyResult(done, failed);
    }

    /**
     * Reads every managed port's tables and compares them with what Saba wrote.
     *
     * @return port → what differs (empty: no drift); with {@code repair} the port is rewritten too
     */
    public synchronized Map<PortId, String> verify() {
        Map<PortId, String> found = new TreeMap<>();
        for (Map.Entry<PortId, Managed> e : managed.entrySet()) {
            Managed m = e.getValue();
            if (m.written == null) {
                continue;
            }
            try {
                String d = differences(m.written, read(m), m, "Saba wrote");
                if (d != null) {
                    found.put(e.getKey(), d);
                    LOG.warn("port {} drifted: {} (another agent, e.g. OpenSM with qos enabled, rewrote it){}",
                            e.getKey(), d, repair ? "; rewriting" : "");
                    if (repair) {
                        write(m, m.written, null);
                    }
                }
            } catch (RuntimeException ex) {
                found.put(e.getKey(), "cannot read back: " + ex.getMessage());
            }
        }
        drift.clear();
        drift.putAll(found);
        lastVerified = Instant.now();
        portsVerified = (int) managed.values().stream().filter(m -> m.written != null).count();
        return found;
    }

    /** What differs between two sets of tables, or null; {@code wantIs} names the first, e.g. "Saba wrote". */
    private static String differences(Tables want, Tables got, Managed m, String wantIs) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<Integer, byte[]> e : want.sl2vl().entrySet()) {
            byte[] g = got.sl2vl().get(e.getKey());
            if (!Arrays.equals(Arrays.copyOf(g, 8), Arrays.copyOf(e.getValue(), 8))) {
                b.append("SL→VL from input port ").append(e.getKey()).append(" is [").append(Sl2Vl.describe(g))
                        .append("], ").append(wantIs).append(" [").append(Sl2Vl.describe(e.getValue())).append("]; ");
            }
        }
        List<VlArbPlan.Entry> wl = VlArbPlan.decode(want.low(), m.caps.lowCap());
        List<VlArbPlan.Entry> gl = VlArbPlan.decode(got.low(), m.caps.lowCap());
        if (!wl.equals(gl)) {
            b.append("low VLArb is ").append(gl).append(", ").append(wantIs).append(' ').append(wl).append("; ");
        }
        List<VlArbPlan.Entry> wh = VlArbPlan.decode(want.high(), m.caps.highCap());
        List<VlArbPlan.Entry> gh = VlArbPlan.decode(got.high(), m.caps.highCap());
        if (!wh.equals(gh)) {
            b.append("high VLArb is ").append(gh).append(", ").append(wantIs).append(' ').append(wh).append("; ");
        }
        return b.length() == 0 ? null : b.substring(0, b.length() - 2);
    }

    /** Drift found by the last {@link #verify} (the periodic check, {@code verify-seconds}); on the status page. */
    @Override
    public synchronized Map<PortId, String> drift() {
        return Map.copyOf(drift);
    }

    /** The periodic check ({@code verify-seconds}; 0: none) and the last {@link #verify}, for the status pages. */
    @Override
    public synchronized DriftCheck driftCheck() {
        return new DriftCheck(Duration.ofSeconds(Math.max(0, verifySeconds)), lastVerified, portsVerified, repair);
    }

    /** Every port with a saved original that this backend does not manage now, and how it differs from it. */
    @Override
    public synchronized Map<PortId, String> leftovers() {
        Map<PortId, String> out = new TreeMap<>();
        originals.all(name()).forEach((p, saved) -> {
            if (managed.containsKey(p)) {
                return;
            }
            try {
                Managed m = locatePort(p, Tables.decode(saved));
                String d = differences(m.original, read(m), m, "its original is");
                out.put(p, d == null ? "has its original tables (saved copy in " + originals.file() + ")"
                        : "not its original tables: " + d);
            } catch (RuntimeException e) {
                out.put(p, "has a saved original, but cannot be read: " + e.getMessage());
            }
        });
        return out;
    }

    /** Writes every saved original this backend does not manage now back to its port, then forgets it. */
    @Override
    public synchronized ApplyResult restoreLeftovers() {
        Set<PortId> done = new TreeSet<>();
        Map<PortId, String> failed = new TreeMap<>();
        originals.all(name()).forEach((p, saved) -> {
            if (managed.containsKey(p)) {
                return;
            }
            try {
                Managed m = locatePort(p, Tables.decode(saved));
                write(m, m.original, null);
                originals.remove(name(), p);
                done.add(p);
                LOG.info("port {} back to its original SL→VL and VL arbitration tables (from {})", p,
                        originals.file());
            } catch (RuntimeException e) {
                failed.put(p, e.getMessage());
            }
        });
        return new ApplyResult(done, failed);
    }

    /** Ports Saba has written, with the plan in force. */
    public synchronized Map<PortId, VlArbPlan> managedPorts() {
        Map<PortId, VlArbPlan> out = new TreeMap<>();
        managed.forEach((p, m) -> {
            if (m.written != null) {
                out.put(p, m.written.plan());
            }
        });
        return out;
    }

    /** The port's capabilities as read at adoption, if managed. */
    public synchronized Optional<PortCaps> caps(PortId p) {
        return Optional.ofNullable(managed.get(p)).map(m -> m.caps);
    }

    @Override
    public synchronized void close() {
        if (verifier != null) {
            verifier.shutdownNow();
        }
        ApplyResult r = release(new TreeSet<>(managed.keySet()));
        r.failed().forEach((p, why) -> LOG.warn("could not give {} its original tables back: {}", p, why));
        smp.close();
    }
}
