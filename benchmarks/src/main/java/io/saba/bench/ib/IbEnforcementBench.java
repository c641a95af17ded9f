package io.saba.bench.ib;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.fabric.infiniband.SmpException;
import io.saba.controller.fabric.infiniband.SmpQuery;
import io.saba.controller.fabric.infiniband.VlArbPlan;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.NetFiles;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.PortStatus;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.StatusResponse;
import io.saba.wire.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * How fast the InfiniBand backend follows the controller: the time from an application's connection event (the
 * client library's call) until every switch port it moves holds the planned VL arbitration table, read back.
 *
 * <p>ibsim simulates the subnet (by default a two-level fat tree), a real OpenSM brings it up, and a standalone
 * {@code saba controller} process discovers it and programs it with the InfiniBand backend. Application A holds
 * RDMA connections around a ring of all hosts, so it crosses every port of the ring's routes; application B, of
 * another level, then opens and closes the same ring: each event moves every one of those ports (B arrives and A's
 * VL shrinks; B leaves and it grows back). The witness is a second management client, the benchmark's own SMP
 * agent, which reads each port's low-priority arbitration table in a loop from the event on; a port's update is
 * visible at the first read that shows the planned entries. The backend writes a port's SL→VL tables before its
 * arbitration table, so that read also marks the port's whole update. After each event, outside the timed window,
 * every port is checked with {@code smpquery}: its arbitration table and its SL→VL tables equal the plan computed
 * from the controller's allocation (its Status RPC).
 */
public final class IbEnforcementBench {
    private static final long QUIET_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(120);
    /** After the last port showed its table: the backend logs and returns; no Status calls in the CPU window. */
    private static final long CPU_TAIL_MILLIS = 100;
    /** Pause between two read-back passes over the pending ports. */
    private static final long PASS_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final String APP_A = "bench-a";
    private static final String APP_B = "bench-b";

    /**
     * @param net                an ibsim net file, or null for a fat tree of {@code spines} × {@code leaves} ×
     *                           {@code hostsPerLeaf}
     * @param events             timed events (B's ring opened, closed, opened, …), each moving every ring port
     * @param warmup             untimed events first
     * @param table              the sensitivity table (workloads lr and sort)
     * @param controllerCommand  the command that runs {@code saba controller} (the benchmark adds --config FILE)
     */
    public record Settings(Path net, int spines, int leaves, int hostsPerLeaf, int events, int warmup, Path table,
                           List<String> controllerCommand) {
        public Settings {
            if (events < 1) {
                throw new IllegalArgumentException("--events must be at least 1, got " + events);
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("--warmup must be 0 or more, got " + warmup);
            }
            if (net != null && !Files.isReadable(net)) {
                throw new IllegalArgumentException("--net " + net + ": no such readable file");
            }
            if (net == null && (spines < 1 || leaves < 1 || hostsPerLeaf < 1 || leaves * hostsPerLeaf < 2)) {
                throw new IllegalArgumentException("--fat-tree " + spines + "," + leaves + "," + hostsPerLeaf
                        + ": needs at least 1 spine, 1 leaf and 2 hosts in all");
            }
            if (!Files.isReadable(table)) {
                throw new IllegalArgumentException("--table " + table + ": no such readable file");
            }
            controllerCommand = List.copyOf(controllerCommand);
        }

        String subnet() {
            return net != null ? "ibsim net file " + net : String.format(Locale.ROOT,
                    "fat tree of %d spine(s), %d leaves, %d host(s) per leaf", spines, leaves, hostsPerLeaf);
        }
    }

    /**
     * Latencies in microseconds: per port update, per event until its first port (the controller's part: the
     * client's call, gRPC, the recomputation round, the first port's SMPs) and until its last port.
     *
     * @param controllerCpuNanos CPU time of the controller process and its SMP agent over the timed events' windows
     *                           (from the event until 100 ms after its last port showed its table)
     * @param sweepMicros        mean time of one read-back pass over the ports still pending; with the 1 ms
     *                           pause between passes, the figures' resolution
     * @param failedReads        read-back Gets that timed out during the timed events (read again)
     * @param checkedPorts       port states checked with smpquery against the plan after the timed events
     */
    public record Result(Histogram perPort, Histogram firstPort, Histogram perEvent, int ports, int events, long controllerCpuNanos,
                         double sweepMicros, int failedReads, int checkedPorts) {
    }

    private IbEnforcementBench() {
    }

    public static Result run(Settings s, PrintStream out) throws IOException, InterruptedException {
        Optional<String> missing = IbSim.missing();
        if (missing.isPresent()) {
            throw new IllegalStateException("cannot simulate a subnet here: " + missing.get());
        }
        Path dir = Files.createTempDirectory("saba-ib-enforcement");
        Path net = s.net() != null ? s.net()
                : NetFiles.write(dir, "fat-tree.net", NetFiles.fatTree(s.spines(), s.leaves(), s.hostsPerLeaf()));
        try (IbSim sim = new IbSim(net, 0)) {
            IbSubnet subnet = sim.tools().discover();
            List<String> hosts = new ArrayList<>(new TreeSet<>(subnet.hosts().keySet()));
            if (hosts.size() < 2) {
                throw new IllegalArgumentException(net + ": the subnet has " + hosts.size() + " host(s), the"
                        + " benchmark needs 2");
            }
            Path config = Files.writeString(dir.resolve("controller.yaml"), config(sim.socket(), hosts, s.table()));
            Path log = dir.resolve("controller.log");
            out.printf(Locale.ROOT, "ib-enforcement: %s on ibsim, OpenSM, a standalone controller (log: %s)%n",
                    s.subnet(), log);
            try (StandaloneController controller = StandaloneController.start(s.controllerCommand(), config, log);
                 VlArbReader reader = new VlArbReader(sim.env());
                 SabaClient client = SabaClient.connect(ClientConfig.defaults(controller.target())
                         .withDeadline(Duration.ofSeconds(10)))) {
                ManagedChannel channel = NettyChannelBuilder.forTarget(controller.target()).usePlaintext().build();
                try {
                    return new Session(s, out, sim, subnet, hosts, controller, reader,
                            ControllerGrpc.newBlockingStub(channel)).measure(client);
                } finally {
                    channel.shutdownNow();
                }
            }
        }
    }

    /** The controller's configuration: discovery and backend on this ibsim, host i at 10.9.0.i. */
    private static String config(String socket, List<String> hosts, Path table) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("listen", "127.0.0.1:0");
        // no periodic re-discovery: its SMPs and CPU would land in random events' windows
        ObjectNode topology = root.putObject("topology").put("discover", "infiniband").put("ibsim", socket)
                .put("refresh-seconds", 0).put("queues", 8);
        ObjectNode addresses = topology.putObject("addresses");
        for (int i = 0; i < hosts.size(); i++) {
            addresses.putArray(hosts.get(i)).add(address(i));
        }
        root.put("table", table.toAbsolutePath().toString());
        root.put("levels", 16);
        root.put("c-saba", 0.9);
        root.put("backend", "infiniband");
        root.putObject("backend-options").put("ibsim", socket);
        return root.toPrettyString(); // JSON is YAML
    }

    private static String address(int hostIndex) {
        return "10.9." + hostIndex / 250 + "." + (hostIndex % 250 + 1);
    }

    /** One run against one controller. */
    private static final class Session {
        private final Settings s;
        private final PrintStream out;
        private final IbSim sim;
        private final List<String> hosts;
        private final StandaloneController controller;
        private final VlArbReader reader;
        private final ControllerGrpc.ControllerBlockingStub status;
        /** The switch output ports of the ring's routes, as the subnet's forwarding tables give them. */
        private final Map<PortId, VlArbReader.Port> ports = new TreeMap<>();
        private long sweeps;
        private long sweepNanos;
        private int failedReads;
        private int checked;

        Session(Settings s, PrintStream out, IbSim sim, IbSubnet subnet, List<String> hosts,
                StandaloneController controller, VlArbReader reader, ControllerGrpc.ControllerBlockingStub status) {
            this.s = s;
            this.out = out;
            this.sim = sim;
            this.hosts = hosts;
            this.controller = controller;
            this.reader = reader;
            this.status = status;
            for (int i = 0; i < hosts.size(); i++) {
                for (PortId p : subnet.path(hosts.get(i), hosts.get((i + 1) % hosts.size()), 0)) {
                    ports.computeIfAbsent(p, id -> reader.locate(subnet, id));
                }
            }
        }

        Result measure(SabaClient client) throws InterruptedException {
            SabaApplication a = register(client, APP_A, "lr");
            SabaApplication b = register(client, APP_B, "sort");
            ring(a, 40_000, true);
            Map<PortId, List<VlArbPlan.Entry>> alone = settle(Set.of(APP_A));
            ring(b, 41_000, true);
            Map<PortId, List<VlArbPlan.Entry>> shared = settle(Set.of(APP_A, APP_B));
            for (PortId p : ports.keySet()) {
                if (alone.get(p).equals(shared.get(p))) {
                    throw new IllegalStateException(p + " holds the same table with and without the second"
                            + " application (" + describe(alone.get(p)) + "): there is no update to time");
                }
            }
            out.printf(Locale.ROOT, "  %d hosts, %d switch ports on the ring's routes; %d warm-up and %d timed"
                    + " events, each moving every port%n", hosts.size(), ports.size(), s.warmup(), s.events());
            PortId first = ports.keySet().iterator().next();
            out.printf(Locale.ROOT, "  e.g. %s, VLArb low (VL:weight): %s with A alone, %s with A and B%n", first,
                    describe(alone.get(first)), describe(shared.get(first)));
            Histogram perPort = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
            Histogram firstPort = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
            Histogram perEvent = new Histogram(TimeUnit.MINUTES.toMicros(1), 3);
            long cpu = 0;
            for (int e = -s.warmup(); e < s.events(); e++) {
                if (e == 0) {
                    sweeps = 0;
                    sweepNanos = 0;
                    failedReads = 0;
                    checked = 0;
                }
                boolean open = b.openConnections() == 0;
                long cpu0 = controller.cpuNanos();
                long t0 = System.nanoTime();
                ring(b, 41_000, open);
                Map<PortId, Long> seen = awaitTables(open ? shared : alone, t0);
                Thread.sleep(CPU_TAIL_MILLIS);
                long used = controller.cpuNanos() - cpu0;
                StatusResponse after = quiet(open ? Set.of(APP_A, APP_B) : Set.of(APP_A));
                check(after, open ? shared : alone);
                if (e < 0) {
                    continue;
                }
                cpu += used;
                seen.values().forEach(nanos -> perPort.recordValue(TimeUnit.NANOSECONDS.toMicros(nanos)));
                firstPort.recordValue(TimeUnit.NANOSECONDS.toMicros(Collections.min(seen.values())));
                perEvent.recordValue(TimeUnit.NANOSECONDS.toMicros(Collections.max(seen.values())));
                if ((e + 1) % 10 == 0 || e + 1 == s.events()) {
                    out.printf(Locale.ROOT, "  %d/%d events, per port p50 %.1f ms%n", e + 1, s.events(),
                            perPort.getValueAtPercentile(50) / 1e3);
                }
            }
            b.deregister();
            a.deregister();
            return new Result(perPort, firstPort, perEvent, ports.size(), s.events(), cpu,
                    sweeps == 0 ? 0 : sweepNanos / 1e3 / sweeps, failedReads, checked);
        }

        /** Registers and waits for the controller's answer (the client retries in the background meanwhile). */
        private SabaApplication register(SabaClient client, String id, String workload) throws InterruptedException {
            SabaApplication app = client.register(new AppSpec(id, workload, "bench", "root", 0));
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (!app.registered()) {
                if (app.refusal() != null) {
                    throw new IllegalStateException("the controller refused " + id + ": " + app.refusal());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the controller did not register " + id + " within 120 s");
                }
                Thread.sleep(20);
            }
            return app;
        }

        /** The application's RDMA connections host 1 → 2 → … → N → 1. */
        private void ring(SabaApplication app, int basePort, boolean open) {
            for (int i = 0; i < hosts.size(); i++) {
                InetSocketAddress src = new InetSocketAddress(address(i), basePort + i);
                InetSocketAddress dst = new InetSocketAddress(address((i + 1) % hosts.size()), 5201);
                if (open) {
                    app.connectionOpened(src, dst, Transport.RDMA);
                } else {
                    app.connectionClosed(src, dst, Transport.RDMA);
                }
            }
        }

        /** Untimed: waits until the controller allocated {@code apps} on every ring port and the tables show it. */
        private Map<PortId, List<VlArbPlan.Entry>> settle(Set<String> apps) throws InterruptedException {
            Map<PortId, List<VlArbPlan.Entry>> plans = plans(quiet(apps));
            awaitTables(plans, System.nanoTime());
            return plans;
        }

        /**
         * The controller's Status once it has {@code apps} on exactly the ring's ports and its allocation has not
         * changed for {@link #QUIET_NANOS}.
         */
        private StatusResponse quiet(Set<String> apps) throws InterruptedException {
            Predicate<StatusResponse> ready = st -> byPort(st).keySet().equals(ports.keySet())
                    && st.getPortsList().stream().allMatch(p -> p.getAppWeightsMap().keySet().equals(apps));
            long deadline = System.nanoTime() + WAIT_NANOS;
            StatusResponse last = null;
            long since = 0;
            while (System.nanoTime() < deadline) {
                StatusResponse st;
                try {
                    st = status.withDeadlineAfter(10, TimeUnit.SECONDS).status(StatusRequest.getDefaultInstance());
                } catch (StatusRuntimeException e) {
                    since = System.nanoTime(); // a starved controller answers late: ask again until the deadline
                    continue;
                }
                if (last == null || st.getAllocationVersion() != last.getAllocationVersion() || !ready.test(st)) {
                    since = System.nanoTime();
                } else if (System.nanoTime() - since > QUIET_NANOS) {
                    return st;
                }
                last = st;
                Thread.sleep(20);
            }
            throw new IllegalStateException("the controller did not settle with " + apps + " on the ring's "
                    + ports.size() + " ports within 120 s; its ports: " + (last == null ? "none"
                    : byPort(last).keySet()));
        }

        /** Reads every pending port until it shows its table; port → nanoseconds from {@code t0} to that read. */
        private Map<PortId, Long> awaitTables(Map<PortId, List<VlArbPlan.Entry>> want, long t0) {
            Map<PortId, Long> seen = new TreeMap<>();
            long deadline = t0 + WAIT_NANOS;
            while (seen.size() < want.size()) {
                if (System.nanoTime() > deadline) {
                    Set<PortId> late = new TreeSet<>(want.keySet());
                    late.removeAll(seen.keySet());
                    throw new IllegalStateException(late + " did not show the planned VL arbitration table within"
                            + " 120 s");
                }
                long start = System.nanoTime();
                for (Map.Entry<PortId, List<VlArbPlan.Entry>> e : want.entrySet()) {
                    if (!seen.containsKey(e.getKey()) && shows(e.getKey(), e.getValue())) {
                        seen.put(e.getKey(), System.nanoTime() - t0);
                    }
                }
                sweeps++;
                sweepNanos += System.nanoTime() - start;
                if (seen.size() < want.size()) {
                    // ibsim serves every client on one thread: leave it to the backend's Sets between passes
                    LockSupport.parkNanos(PASS_PAUSE_NANOS);
                }
            }
            return seen;
        }

        /** Whether the port's table reads back as {@code want}; a Get that timed out is a no (read again). */
        private boolean shows(PortId port, List<VlArbPlan.Entry> want) {
            try {
                return reader.low(ports.get(port)).equals(want);
            } catch (SmpException e) {
                failedReads++; // ibsim starved of CPU drops MADs; the port is read again in the next pass
                return false;
            }
        }

        /** The arbitration table the backend plans for each port from the controller's allocation. */
        private Map<PortId, List<VlArbPlan.Entry>> plans(StatusResponse st) {
            Map<PortId, List<VlArbPlan.Entry>> out = new TreeMap<>();
            byPort(st).forEach((id, p) -> out.put(id, plan(p, ports.get(id)).entries()));
            return out;
        }

        /** As the backend plans it (packet model mtu, the default): queue q is VL q, up to the port's OperVLs. */
        private static VlArbPlan plan(PortStatus p, VlArbReader.Port port) {
            double[] w = new double[port.caps().operVls()];
            for (int q = 0; q < Math.min(w.length, p.getQueueWeightsCount()); q++) {
                w[q] = p.getQueueWeights(q);
            }
            int mtu = port.caps().mtuBytes();
            return VlArbPlan.of(w, port.caps().lowCap(), mtu > 0 ? mtu / 64 : 1);
        }

        /**
         * Outside the timed window: the allocation is the one timed against, and {@code smpquery} shows on every
         * port the arbitration table planned from it, an empty high-priority table and SL L → the level's queue
         * from every input port.
         */
        private void check(StatusResponse st, Map<PortId, List<VlArbPlan.Entry>> timedAgainst) {
            Map<PortId, List<VlArbPlan.Entry>> planned = plans(st);
            if (!planned.equals(timedAgainst)) {
                throw new IllegalStateException("the controller's allocation gives " + planned + ", not the tables"
                        + " timed against " + timedAgainst);
            }
            byPort(st).forEach((id, p) -> {
                VlArbReader.Port port = ports.get(id);
                SmpQuery.VlArb vlarb = SmpQuery.vlarb(sim.tools(), port.lid(), id.port());
                List<VlArbPlan.Entry> low = vlarb.low().stream().filter(x -> x.weight() > 0).toList();
                if (!low.equals(planned.get(id))) {
                    throw new IllegalStateException(id + ": smpquery vlarb shows " + low + ", the plan is "
                            + planned.get(id));
                }
                if (!SmpQuery.weightPerVl(vlarb.high()).isEmpty()) {
                    throw new IllegalStateException(id + ": the high-priority table is not empty: " + vlarb.high());
                }
                SmpQuery.sl2vl(sim.tools(), port.lid(), id.port()).forEach((in, vls) -> {
                    for (int sl = 0; sl < vls.size(); sl++) {
                        int want = p.getQueueOfLevelOrDefault(sl, 0);
                        if (vls.get(sl) != want) {
                            throw new IllegalStateException(id + ": SL " + sl + " from input port " + in + " goes"
                                    + " to VL " + vls.get(sl) + ", the allocation puts level " + sl + " in queue "
                                    + want);
                        }
                    }
                });
                checked++;
            });
        }

        private static String describe(List<VlArbPlan.Entry> table) {
            return table.stream().map(e -> e.vl() + ":" + e.weight()).collect(Collectors.joining(" ", "[", "]"));
        }

        private static Map<PortId, PortStatus> byPort(StatusResponse st) {
            Map<PortId, PortStatus> out = new TreeMap<>();
            st.getPortsList().forEach(p -> out.put(new PortId(p.getNode(), p.getPort()), p));
            return out;
        }
    }

    /** The figures, one line each. */
    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "event → VLArb read back, per port update (%d updates): p50 %.1f ms, p99 %.1f ms,"
                        + " max %.1f ms%n", r.perPort().getTotalCount(), ms(r.perPort(), 50), ms(r.perPort(), 99),
                r.perPort().getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "event → VLArb read back, first port of an event: p50 %.1f ms, p99 %.1f ms%n",
                ms(r.firstPort(), 50), ms(r.firstPort(), 99));
        out.printf(Locale.ROOT, "event → VLArb read back, all %d ports of an event (%d events): p50 %.1f ms, p99 %.1f"
                        + " ms, max %.1f ms%n", r.ports(), r.events(), ms(r.perEvent(), 50), ms(r.perEvent(), 99),
                r.perEvent().getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "read-back resolution: a pass over the pending ports took %.2f ms on average, then 1 ms pause"
                + " (%d Gets timed out and were repeated)%n", r.sweepMicros() / 1e3, r.failedReads());
        out.printf(Locale.ROOT, "controller CPU (its JVM and SMP agent) per event: %.1f ms%n",
                r.controllerCpuNanos() / 1e6 / r.events());
        out.printf(Locale.ROOT, "checked with smpquery after every event: %d port states, each VLArb and SL→VL table"
                + " as planned from the controller's allocation%n", r.checkedPorts());
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }
}
