package io.saba.bench;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.controller.fabric.linux.LinuxBackendOptions;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.process.ProcessRunner;
import io.saba.core.table.ModelCatalog;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import io.saba.controller.topology.TopologyLoader;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * How fast the fabric follows the controller: the time from an application's connection event (the client
 * library's call) to the change being in the kernel, on every port it moves.
 *
 * <p>On a namespace testbed of {@code hosts} hosts, a controller with the Linux backend manages every switch port
 * and every host's NIC egress (2 × hosts ports). Application A holds connections around a ring, so it crosses all
 * of them; application B, of another level, then repeatedly opens and closes the same ring of connections: each
 * event moves every port (B arrives and A's queue shrinks; B leaves and it grows back). The kernel's own account
 * is the witness: {@code tc monitor} in each namespace stamps every qdisc, class and filter change as the kernel
 * makes it. A port's update is visible at its last change after the event, once all ports have been quiet for a
 * while; the benchmark then checks that each port holds the classes the backend planned.
 */
public final class EnforcementBench {
    private static final Pattern EVENT = Pattern.compile("^\\[(\\d{4}-\\d\\d-\\d\\dT[\\d:.]+)] .*\\bdev (\\S+)");
    private static final long QUIET_MICROS = 250_000;

    /** Settings: the testbed's name, size and link rate, and the number of events (each moves every port). */
    public record Settings(String name, int hosts, long linkBps, String subnet, int events) {
        public Settings {
            if (hosts < 2) {
                throw new IllegalArgumentException("--hosts must be at least 2, got " + hosts);
            }
            if (events < 1) {
                throw new IllegalArgumentException("--events must be at least 1, got " + events);
            }
        }
    }

    /** Latencies in microseconds: per port update, and per event until its last port. */
    public record Result(Histogram perPort, Histogram perEvent, int ports, int events) {
    }

    private EnforcementBench() {
    }

    public static Result run(Settings s, PrintStream out) throws IOException, InterruptedException {
        ProcessRunner shell = new ProcessRunner();
        Testbed testbed = new Testbed(shell);
        TestbedSpec spec = new TestbedSpec(s.name(), s.hosts(), s.linkBps(), s.subnet());
        testbed.up(spec);
        List<Process> monitors = new ArrayList<>();
        Map<String, AtomicLong> lastChange = new ConcurrentHashMap<>(); // "namespace/device" → epoch µs
        try {
            monitors.add(monitor(spec.switchNamespace(), lastChange));
            for (int i = 1; i <= s.hosts(); i++) {
                monitors.add(monitor(spec.hostNamespace(i), lastChange));
            }
            return measure(s, spec, lastChange, out);
        } finally {
            monitors.forEach(Process::destroy);
            testbed.down(s.name());
        }
    }

    private static Result measure(Settings s, TestbedSpec spec, Map<String, AtomicLong> lastChange, PrintStream out)
            throws IOException, InterruptedException {
        LinuxTcBackend backend = LinuxBackendOptions.create(Map.of("testbed", s.name(), "c-saba", "0.9"));
        ModelCatalog table = new ModelCatalog(Map.of("lr", SensitivityModel.of(5, -8, 4),
                "sort", SensitivityModel.of(1.2, -0.2)));
        List<String> watched = new ArrayList<>();
        for (int i = 1; i <= s.hosts(); i++) {
            watched.add(spec.switchNamespace() + "/" + spec.switchPortDevice(i));
            watched.add(spec.hostNamespace(i) + "/" + TestbedSpec.HOST_DEVICE);
        }
        Histogram perPort = new Histogram(60_000_000L, 3);
        Histogram perEvent = new Histogram(60_000_000L, 3);
        try (EmbeddedController controller = EmbeddedController.builder()
                .listen(new InetSocketAddress("127.0.0.1", 0))
                .topology(TopologyLoader.load(TestbedSpec.stateDir(s.name()).resolve("topology.yaml"))
                        .withHostEgress(8))
                .table(table).cSaba(0.9).backend(backend, true).build()) {
            controller.start();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(controller.target()))) {
                events(s, spec, backend, client, watched, lastChange, perPort, perEvent, out);
            }
        }
        return new Result(perPort, perEvent, 2 * s.hosts(), s.events());
    }

    private static void events(Settings s, TestbedSpec spec, LinuxTcBackend backend, SabaClient client,
                               List<String> watched, Map<String, AtomicLong> lastChange, Histogram perPort,
                               Histogram perEvent, PrintStream out) throws InterruptedException {
        SabaApplication a = client.register(new AppSpec("bench-a", "lr", "bench", "root", 0));
        ring(a, spec, 40_000, true);
        awaitPorts(backend, 2 * s.hosts(), lastChange);
        SabaApplication b = client.register(new AppSpec("bench-b", "sort", "bench", "root", 0));
        awaitQuiet(lastChange, Instant.now());
        out.printf(Locale.ROOT, "enforcement: %d ports (%d switch ports, %d host NICs), %d events%n",
                2 * s.hosts(), s.hosts(), s.hosts(), s.events());
        for (int e = 0; e < s.events(); e++) {
            boolean open = e % 2 == 0;
            long t0 = micros(Instant.now());
            ring(b, spec, 41_000, open);
            awaitQuiet(lastChange, Instant.now());
            long last = 0;
            for (String dev : watched) {
                long at = lastChange.getOrDefault(dev, new AtomicLong()).get();
                if (at < t0) {
                    throw new IllegalStateException("event " + e + " did not change " + dev
                            + " (the controller pushed nothing there)");
                }
                perPort.recordValue(at - t0);
                last = Math.max(last, at - t0);
            }
            perEvent.recordValue(last);
            checkInstalled(spec, backend);
            if ((e + 1) % 10 == 0 || e + 1 == s.events()) {
                out.printf(Locale.ROOT, "  %d/%d events, per port p50 %.1f ms%n", e + 1, s.events(),
                        perPort.getValueAtPercentile(50) / 1000.0);
            }
        }
        b.deregister();
        a.deregister();
    }

    /** Outside the timed window: every port holds exactly the classes of the plan the backend installed. */
    private static void checkInstalled(TestbedSpec spec, LinuxTcBackend backend) {
        ProcessRunner shell = new ProcessRunner();
        for (PortId p : backend.managedPorts()) {
            String ns = p.node().equals(TestbedSpec.SWITCH) ? spec.switchNamespace()
                    : spec.hostNamespace(spec.hostIndex(p.node()));
            String dev = p.node().equals(TestbedSpec.SWITCH) ? spec.switchPortDevice(p.port()) : TestbedSpec.HOST_DEVICE;
            HtbPlan plan = backend.installedPlan(p).orElseThrow();
            Set<String> want = new TreeSet<>(List.of("1:1", plan.nonSaba().classId()));
            plan.queues().forEach(c -> want.add(c.classId()));
            Set<String> have = new TreeSet<>();
            for (String line : shell.check("tc", "-n", ns, "class", "show", "dev", dev).split("\n")) {
                String[] t = line.trim().split("\\s+");
                if (t.length >= 3 && t[0].equals("class")) {
                    have.add(t[2]);
                }
            }
            if (!have.equals(want)) {
                throw new IllegalStateException(p + " holds classes " + have + " but the backend planned " + want);
            }
        }
    }

    /** The application's connections h1 → h2 → … → hN → h1: each crosses the sender's NIC and one switch port. */
    private static void ring(SabaApplication app, TestbedSpec spec, int basePort, boolean open) {
        for (int i = 1; i <= spec.hosts(); i++) {
            int j = i % spec.hosts() + 1;
            InetSocketAddress src = new InetSocketAddress(spec.address(i), basePort + i);
            InetSocketAddress dst = new InetSocketAddress(spec.address(j), 5201);
            if (open) {
                app.connectionOpened(src, dst, Transport.TCP);
            } else {
                app.connectionClosed(src, dst, Transport.TCP);
            }
        }
    }

    private static void awaitPorts(LinuxTcBackend backend, int ports, Map<String, AtomicLong> lastChange)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (backend.managedPorts().size() < ports) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the controller programmed " + backend.managedPorts() + ", not all "
                        + ports + " ports, within 30 s");
            }
            Thread.sleep(20);
        }
        awaitQuiet(lastChange, Instant.now());
    }

    /** Waits until no namespace reported a change for {@link #QUIET_MICROS} (at most 30 s). */
    static void awaitQuiet(Map<String, AtomicLong> lastChange, Instant since) throws InterruptedException {
        long start = micros(since);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < end) {
            long latest = lastChange.values().stream().mapToLong(AtomicLong::get).max().orElse(0);
            long now = micros(Instant.now());
            if (now - Math.max(latest, start) > QUIET_MICROS) {
                return;
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("the fabric kept changing for 30 s");
    }

    /** {@code tc -n NS -ts monitor}: every change the kernel makes there, stamped, into {@code lastChange}. */
    static Process monitor(String namespace, Map<String, AtomicLong> lastChange) throws IOException,
            InterruptedException {
        Process p = new ProcessBuilder("tc", "-n", namespace, "-ts", "monitor").redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    Matcher m = EVENT.matcher(line);
                    if (m.find()) {
                        long at = micros(LocalDateTime.parse(m.group(1)).atZone(ZoneId.systemDefault()).toInstant());
                        lastChange.computeIfAbsent(namespace + "/" + m.group(2), k -> new AtomicLong())
                                .accumulateAndGet(at, Math::max);
                    }
                }
            } catch (IOException e) {
                // the monitor was stopped
            }
        }, "tc-monitor-" + namespace);
        reader.setDaemon(true);
        reader.start();
        Thread.sleep(100); // let it subscribe before anything changes
        if (!p.isAlive()) {
            throw new IllegalStateException("`tc -n " + namespace + " -ts monitor` exited " + p.exitValue());
        }
        return p;
    }

    static long micros(Instant t) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, t);
    }

    /** The figures, one line each. */
    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "event → kernel, per port update (%d updates): p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                r.perPort().getTotalCount(), ms(r.perPort(), 50), ms(r.perPort(), 99), r.perPort().getMaxValue() / 1e3);
        out.printf(Locale.ROOT, "event → kernel, all %d ports of an event (%d events): p50 %.1f ms, p99 %.1f ms%n",
                r.ports(), r.events(), ms(r.perEvent(), 50), ms(r.perEvent(), 99));
    }

    static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1000.0;
    }
}
