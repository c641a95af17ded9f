package io.saba.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.process.ProcessRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import io.saba.wire.DscpMap;
import io.saba.wire.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The enforcement benchmark with {@code backend: agents}: the time from an application's connection event to the
 * change being in the kernel of every host whose NIC it moves, when each host's own {@code saba agent} programs it.
 *
 * <p>The testbed has one host more than measured: {@code saba controller} runs in h1's namespace, and each of the
 * {@code hosts} measured hosts h2 … h(hosts+1) runs {@code saba agent} in its own namespace, managing its NIC's
 * egress and reaching the controller over the testbed's network, as deployed. The benchmark itself (the
 * applications' client, /status.json) reaches h1 over a side link of its own, which no agent uses. The event pattern
 * is the Linux row's: application A holds a ring of connections h2 → h3 → … → h2, then application B, of another
 * level, repeatedly opens and closes the same ring, so every event moves every measured host's NIC. The witness is
 * the same, {@code tc monitor} in each host's namespace; after each event every host's classes are checked against
 * the plan the controller reports on /status.json, and every agent must have acknowledged its plan. The agents' and
 * the controller's CPU time over the events, with the {@code tc} runs they wait for, is read from {@code /proc}.
 */
public final class AgentsEnforcementBench {
    /** The side link from the benchmark's namespace into h1: .1 here, .2 in h1. */
    private static final String SIDE = "192.168.252.";
    private static final int GRPC_PORT = 7070;
    private static final int HTTP_PORT = 7071;
    private static final Duration START = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * @param hosts       measured hosts, each with its agent (the controller's host comes on top)
     * @param sabaCommand the command that runs {@code saba} (the benchmark adds {@code controller …} or
     *                    {@code agent …}), run in a host's namespace with {@code ip netns exec}
     */
    public record Settings(String name, int hosts, long linkBps, String subnet, int events, List<String> sabaCommand) {
        public Settings {
            if (hosts < 2) {
                throw new IllegalArgumentException("--hosts must be at least 2, got " + hosts);
            }
            if (events < 1) {
                throw new IllegalArgumentException("--events must be at least 1, got " + events);
            }
            sabaCommand = List.copyOf(sabaCommand);
            if (sabaCommand.isEmpty()) {
                throw new IllegalArgumentException("no command to run saba with");
            }
        }
    }

    /**
     * Latencies in microseconds, per host NIC update and per event until its last host; CPU time of all agents
     * together and of the controller over the events (their {@code tc} runs included, and the agents' acknowledgements
     * with counters about once a second); how many host NICs were found holding their plan.
     */
    public record Result(Histogram perHost, Histogram perEvent, int hosts, int events, long agentsCpuNanos,
                         long controllerCpuNanos, int checkedHosts) {
    }

    private AgentsEnforcementBench() {
    }

    public static Result run(Settings s, PrintStream out) throws IOException, InterruptedException {
        ProcessRunner shell = new ProcessRunner();
        Testbed testbed = new Testbed(shell);
        TestbedSpec spec = new TestbedSpec(s.name(), s.hosts() + 1, s.linkBps(), s.subnet());
        String side = sideDevice(s.name());
        Path dir = Files.createTempDirectory("saba-agents-enforcement");
        Path topology = testbed.up(spec);
        List<Process> monitors = new ArrayList<>();
        List<Process> agents = new ArrayList<>();
        Process controller = null;
        Map<String, AtomicLong> lastChange = new ConcurrentHashMap<>();
        try {
            sideLink(shell, spec, side);
            for (int i = 2; i <= spec.hosts(); i++) {
                monitors.add(EnforcementBench.monitor(spec.hostNamespace(i), lastChange));
            }
            Path config = Files.writeString(dir.resolve("controller.yaml"), config(topology, table(dir), dir));
            controller = saba(s, spec, 1, dir, "controller", "--config", config.toString());
            Process c = controller;
            await(() -> serving(c, dir), () -> "the controller did not start; see " + dir.resolve("controller-h1.log"));
            for (int i = 2; i <= spec.hosts(); i++) {
                agents.add(saba(s, spec, i, dir, "agent", "--controller", spec.address(1) + ":" + GRPC_PORT,
                        "--host", spec.hostName(i), "--nic", TestbedSpec.HOST_DEVICE + "@" + s.linkBps(),
                        "--state-dir", dir.resolve("agent-h" + i).toString(), "--lease-seconds", "60"));
            }
            await(() -> connectedAgents() == s.hosts(), () -> "not all " + s.hosts() + " agents connected: "
                    + status() + "; logs in " + dir);
            out.printf(Locale.ROOT, "enforcement (agents): %d hosts, each with its own saba agent process, the"
                    + " controller in a namespace of its own, %d events (logs: %s)%n", s.hosts(), s.events(), dir);
            return measure(s, spec, lastChange, agents, controller, out);
        } finally {
            monitors.forEach(Process::destroy);
            for (Process p : agents) {
                stop(p);
            }
            if (controller != null) {
                stop(controller);
            }
            testbed.down(s.name());
            shell.run(List.of("ip", "link", "del", side));
        }
    }

    private static Result measure(Settings s, TestbedSpec spec, Map<String, AtomicLong> lastChange,
                                  List<Process> agents, Process controller, PrintStream out)
            throws InterruptedException {
        List<Integer> ring = new ArrayList<>();
        for (int i = 2; i <= spec.hosts(); i++) {
            ring.add(i);
        }
        List<String> watched = ring.stream().map(i -> spec.hostNamespace(i) + "/" + TestbedSpec.HOST_DEVICE).toList();
        Histogram perHost = new Histogram(60_000_000L, 3);
        Histogram perEvent = new Histogram(60_000_000L, 3);
        ProcessRunner shell = new ProcessRunner();
        int checked = 0;
        long agentsCpu;
        long controllerCpu;
        try (SabaClient client = SabaClient.connect(ClientConfig.defaults(SIDE + "2:" + GRPC_PORT))) {
            SabaApplication a = client.register(new AppSpec("bench-a", "lr", "bench", "root", 0));
            ring(a, spec, ring, 40_000, true);
            await(() -> ring.stream().allMatch(i -> sabaQueues(shell, spec, i) > 0),
                    () -> "not every host's agent installed A's queue: " + status());
            EnforcementBench.awaitQuiet(lastChange, Instant.now());
            SabaApplication b = client.register(new AppSpec("bench-b", "sort", "bench", "root", 0));
            EnforcementBench.awaitQuiet(lastChange, Instant.now());
            long agents0 = cpuNanos(agents);
            long controller0 = cpuNanos(List.of(controller));
            for (int e = 0; e < s.events(); e++) {
                boolean open = e % 2 == 0;
                long t0 = EnforcementBench.micros(Instant.now());
                ring(b, spec, ring, 41_000, open);
                EnforcementBench.awaitQuiet(lastChange, Instant.now());
                long last = 0;
                for (String dev : watched) {
                    long at = lastChange.getOrDefault(dev, new AtomicLong()).get();
                    if (at < t0) {
                        throw new IllegalStateException("event " + e + " did not change " + dev
                                + " (its agent applied nothing there): " + status());
                    }
                    perHost.recordValue(at - t0);
                    last = Math.max(last, at - t0);
                }
                perEvent.recordValue(last);
                checked += checkInstalled(s, spec, ring, shell, e);
                if ((e + 1) % 10 == 0 || e + 1 == s.events()) {
                    out.printf(Locale.ROOT, "  %d/%d events, per host p50 %.1f ms%n", e + 1, s.events(),
                            perHost.getValueAtPercentile(50) / 1000.0);
                }
            }
            agentsCpu = cpuNanos(agents) - agents0;
            controllerCpu = cpuNanos(List.of(controller)) - controller0;
            b.deregister();
            a.deregister();
            // the agents release their NICs before they are stopped, not while
            await(() -> ring.stream().allMatch(i -> sabaQueues(shell, spec, i) == 0)
                    && allAcknowledged(), () -> "the agents did not release their NICs: " + status());
        }
        return new Result(perHost, perEvent, s.hosts(), s.events(), agentsCpu, controllerCpu, checked);
    }

    /**
     * Outside the timed window: every host's agent acknowledged its current plan, and its NIC holds exactly the
     * classes of the plan the controller reports for that host's port. Returns the number of hosts checked.
     */
    private static int checkInstalled(Settings s, TestbedSpec spec, List<Integer> ring, ProcessRunner shell,
                                      int event) {
        await(AgentsEnforcementBench::allAcknowledged, () -> "event " + event + ": not every agent acknowledged"
                + " its plan: " + status());
        JsonNode root = statusJson();
        Map<String, PortAllocation> planned = new HashMap<>();
        for (JsonNode p : root.path("ports")) {
            PortId id = PortId.parse(p.path("port").asText());
            Map<Integer, Integer> queueOfLevel = new TreeMap<>();
            p.path("queue_of_level").fields().forEachRemaining(f ->
                    queueOfLevel.put(Integer.parseInt(f.getKey()), f.getValue().asInt()));
            double[] w = new double[p.path("queue_weights").size()];
            for (int q = 0; q < w.length; q++) {
                w[q] = p.path("queue_weights").get(q).asDouble();
            }
            PortAllocation a = new PortAllocation(id, queueOfLevel, w, Map.of());
            if (planned.put(id.node(), a) != null && !id.node().equals(TestbedSpec.SWITCH)) {
                throw new IllegalStateException("host " + id.node() + " has two planned ports: " + root.path("ports"));
            }
        }
        int n = 0;
        for (int i : ring) {
            PortAllocation a = planned.get(spec.hostName(i));
            if (a == null) {
                throw new IllegalStateException("event " + event + ": the controller has no plan for "
                        + spec.hostName(i) + ", which sends on the ring: " + root.path("ports"));
            }
            // the agent plans as the Linux backend does, with C_Saba 1 (the controller applied its own already)
            HtbPlan plan = HtbPlan.of(a, s.linkBps(), 1.0, DscpMap.classSelectors());
            Set<String> want = new TreeSet<>(List.of("1:1", plan.nonSaba().classId()));
            plan.queues().forEach(c -> want.add(c.classId()));
            Set<String> have = classes(shell, spec, i);
            if (!have.equals(want)) {
                throw new IllegalStateException("event " + event + ": " + spec.hostName(i) + " holds classes " + have
                        + " but the controller planned " + want + " (" + a + ")");
            }
            n++;
        }
        return n;
    }

    private static Set<String> classes(ProcessRunner shell, TestbedSpec spec, int host) {
        Set<String> have = new TreeSet<>();
        for (String line : shell.check("tc", "-n", spec.hostNamespace(host), "class", "show", "dev",
                TestbedSpec.HOST_DEVICE).split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length >= 3 && t[0].equals("class")) {
                have.add(t[2]);
            }
        }
        return have;
    }

    /** Saba's queue classes (1:20 and up) on host i's NIC. */
    private static long sabaQueues(ProcessRunner shell, TestbedSpec spec, int host) {
        return classes(shell, spec, host).stream().filter(c -> c.matches("1:[23][0-9a-f]")).count();
    }

    /** The application's connections around the ring of hosts: each crosses its sender's NIC. */
    private static void ring(SabaApplication app, TestbedSpec spec, List<Integer> hosts, int basePort, boolean open) {
        for (int k = 0; k < hosts.size(); k++) {
            int i = hosts.get(k);
            int j = hosts.get((k + 1) % hosts.size());
            InetSocketAddress src = new InetSocketAddress(spec.address(i), basePort + i);
            InetSocketAddress dst = new InetSocketAddress(spec.address(j), 5201);
            if (open) {
                app.connectionOpened(src, dst, Transport.TCP);
            } else {
                app.connectionClosed(src, dst, Transport.TCP);
            }
        }
    }

    /** The controller: agents backend, the Linux row's C_Saba and host queues, its table. */
    private static String config(Path topology, Path table, Path dir) {
        return String.join("\n",
                "listen: 0.0.0.0:" + GRPC_PORT,
                "http: 0.0.0.0:" + HTTP_PORT,
                "topology: {file: " + topology.toAbsolutePath() + ", host-queues: 8}",
                "table: " + table.toAbsolutePath(),
                "c-saba: 0.9",
                "backend: agents",
                "journal-dir: " + dir.resolve("journal").toAbsolutePath(),
                "");
    }

    /** The Linux row's two models: lr, sensitive to bandwidth, and sort, hardly. */
    private static Path table(Path dir) throws IOException {
        return Files.writeString(dir.resolve("table.json"), """
                {"format": "saba-sensitivity-table", "version": 1, "workloads": {
                  "lr": {"degree": 2, "coefficients": [5, -8, 4]},
                  "sort": {"degree": 1, "coefficients": [1.2, -0.2]}}}
                """);
    }

    /** A veth from this namespace into h1, for the benchmark's own calls; agents never use it. */
    private static void sideLink(ProcessRunner shell, TestbedSpec spec, String side) {
        shell.run(List.of("ip", "link", "del", side));
        shell.check("ip", "link", "add", side, "type", "veth", "peer", "name", "side0", "netns",
                spec.hostNamespace(1));
        shell.check("ip", "addr", "add", SIDE + "1/30", "dev", side);
        shell.check("ip", "link", "set", side, "up");
        shell.check("ip", "-n", spec.hostNamespace(1), "addr", "add", SIDE + "2/30", "dev", "side0");
        shell.check("ip", "-n", spec.hostNamespace(1), "link", "set", "side0", "up");
    }

    private static String sideDevice(String name) {
        String d = "saba" + name + "0";
        return d.length() <= 15 ? d : d.substring(0, 14) + "0";
    }

    /** {@code saba ARGS} in host i's namespace, its output to {@code ARGS[0]-hI.log}. */
    private static Process saba(Settings s, TestbedSpec spec, int host, Path dir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", spec.hostNamespace(host)));
        cmd.addAll(s.sabaCommand());
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(args[0] + "-h" + host + ".log").toFile()).start();
    }

    private static boolean serving(Process controller, Path dir) {
        if (!controller.isAlive()) {
            throw new IllegalStateException("the controller exited " + controller.exitValue() + "; see "
                    + dir.resolve("controller-h1.log"));
        }
        try {
            return new String(Files.readAllBytes(dir.resolve("controller-h1.log")), StandardCharsets.UTF_8)
                    .contains("saba controller: gRPC on");
        } catch (IOException e) {
            return false;
        }
    }

    /** Stops a saba process as a signal does (`ip netns exec` replaced itself with the JVM). */
    private static void stop(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /**
     * CPU time (user + system) of the processes and of their children they have waited for, the {@code tc} runs
     * among them, from {@code /proc/PID/stat} in clock ticks of 10 ms (USER_HZ is 100 on Linux).
     */
    private static long cpuNanos(List<Process> processes) {
        long ticks = 0;
        for (Process p : processes) {
            String stat;
            try {
                stat = Files.readString(Path.of("/proc", Long.toString(p.pid()), "stat"));
            } catch (IOException e) {
                throw new IllegalStateException("no CPU time for process " + p.pid() + " (alive " + p.isAlive() + ")",
                        e);
            }
            // the fields after the command's closing parenthesis start at field 3; utime … cstime are 14 … 17
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
            for (int i = 11; i <= 14; i++) {
                ticks += Long.parseLong(f[i]);
            }
        }
        return ticks * 10_000_000L;
    }

    private static String status() {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + SIDE + "2:"
                    + HTTP_PORT + "/status.json")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            return "unreachable: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static JsonNode statusJson() {
        try {
            return JSON.readTree(status());
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static long connectedAgents() {
        long n = 0;
        for (JsonNode a : statusJson().path("fabric").path("agents")) {
            n += a.path("connected").asBoolean() ? 1 : 0;
        }
        return n;
    }

    private static boolean allAcknowledged() {
        JsonNode agents = statusJson().path("fabric").path("agents");
        if (agents.isEmpty()) {
            return false;
        }
        for (JsonNode a : agents) {
            if (!a.path("connected").asBoolean() || a.path("lag").asLong(-1) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Polls {@code done} every 100 ms for at most {@link #START}; then fails with {@code what}, computed then. */
    private static void await(BooleanSupplier done, Supplier<String> what) {
        long end = System.nanoTime() + START.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException(what.get());
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting: " + what.get());
            }
        }
    }

    /** The figures, one line each, in the Linux row's form. */
    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "event → kernel, per host NIC update (%d updates): p50 %.1f ms, p99 %.1f ms, max %.1f"
                        + " ms%n", r.perHost().getTotalCount(), EnforcementBench.ms(r.perHost(), 50),
                EnforcementBench.ms(r.perHost(), 99), r.perHost().getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "event → kernel, all %d hosts of an event (%d events): p50 %.1f ms, p99 %.1f ms, max"
                        + " %.1f ms%n", r.hosts(), r.events(), EnforcementBench.ms(r.perEvent(), 50),
                EnforcementBench.ms(r.perEvent(), 99), r.perEvent().getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "CPU per event: %.1f ms in all %d agents together (%.1f ms each), %.1f ms in the"
                        + " controller; %d of %d host NICs held their plan%n",
                r.agentsCpuNanos() / 1e6 / r.events(), r.hosts(), r.agentsCpuNanos() / 1e6 / r.events() / r.hosts(),
                r.controllerCpuNanos() / 1e6 / r.events(), r.checkedHosts(), r.hosts() * r.events());
    }
}
