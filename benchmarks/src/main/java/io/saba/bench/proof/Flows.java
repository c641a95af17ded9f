package io.saba.bench.proof;

import io.saba.process.CommandRunner;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One phase's traffic: an iperf3 server per application on the receiver h1 and an iperf3 client on each
 * application's host, all started together. The receiver's JSON reports are the measurement.
 */
final class Flows implements AutoCloseable {
    static final int RECEIVER = 1;
    /**
     * Set per socket (TCP_CONGESTION, allowed to root for any available algorithm): a namespace's default can only
     * be one of the machine's "allowed" algorithms, and the machine's default may be BBR, whose flows split a
     * drop-tail FIFO far from evenly (seen here: 7/8/79 %), which would make the baseline an artefact of the
     * congestion control rather than of the queue. CUBIC is Linux's usual default.
     */
    static final String CONGESTION_CONTROL = "cubic";

    private final TestbedSpec spec;
    private final Path dir;
    private final List<ProofApp> apps;
    private final int seconds;
    private final Map<ProofApp, Process> servers = new LinkedHashMap<>();
    private final Map<ProofApp, Process> clients = new LinkedHashMap<>();

    private Flows(TestbedSpec spec, Path dir, List<ProofApp> apps, int seconds) {
        this.spec = spec;
        this.dir = dir;
        this.apps = List.copyOf(apps);
        this.seconds = seconds;
    }

    /** Starts servers, waits until they listen, then starts all clients for {@code seconds}. */
    static Flows start(TestbedSpec spec, CommandRunner shell, Path dir, String phase, List<ProofApp> apps,
                       int seconds, Map<ProofApp, Integer> tos) throws IOException {
        Flows f = new Flows(spec, dir, apps, seconds);
        try {
            for (ProofApp a : apps) {
                f.servers.put(a, spawn(spec, "h" + RECEIVER, dir.resolve(phase + "-" + a.name() + "-server.json"),
                        List.of("iperf3", "-s", "-1", "-J", "-i", "0.5", "-p", Integer.toString(a.serverPort()))));
            }
            for (ProofApp a : apps) {
                awaitListening(spec, shell, a.serverPort());
            }
            for (ProofApp a : apps) {
                List<String> cmd = new ArrayList<>(List.of("iperf3", "-c", spec.address(RECEIVER),
                        "-p", Integer.toString(a.serverPort()), "--cport", Integer.toString(a.clientPort()),
                        "-t", Integer.toString(seconds), "-J", "--connect-timeout", "3000", "-C", CONGESTION_CONTROL));
                Integer t = tos.get(a);
                if (t != null) {
                    cmd.addAll(List.of("-S", "0x" + Integer.toHexString(t)));
                }
                f.clients.put(a, spawn(spec, "h" + a.host(), dir.resolve(phase + "-" + a.name() + "-client.json"), cmd));
            }
        } catch (IOException | RuntimeException e) {
            f.close();
            throw e;
        }
        return f;
    }

    /** Waits for every flow to end; returns each application's received goodput series. */
    Map<ProofApp, Goodput> await(String phase) throws IOException, InterruptedException {
        Map<ProofApp, Goodput> out = new LinkedHashMap<>();
        for (ProofApp a : apps) {
            Process c = clients.get(a);
            if (!c.waitFor(seconds + 15L, TimeUnit.SECONDS)) {
                throw new IOException(phase + ": iperf3 client of " + a.name() + " did not finish");
            }
            if (c.exitValue() != 0) {
                // A reset connection (e.g. by a disruptive qdisc change) shows up here.
                throw new IOException(phase + ": iperf3 client of " + a.name() + " exited " + c.exitValue() + ": "
                        + Files.readString(dir.resolve(phase + "-" + a.name() + "-client.json")));
            }
        }
        for (ProofApp a : apps) {
            Process s = servers.get(a);
            if (!s.waitFor(10, TimeUnit.SECONDS)) {
                throw new IOException(phase + ": iperf3 server of " + a.name() + " did not finish");
            }
            out.put(a, Goodput.parseIperfServerJson(
                    Files.readString(dir.resolve(phase + "-" + a.name() + "-server.json"))));
        }
        return out;
    }

    private static Process spawn(TestbedSpec spec, String node, Path stdout, List<String> cmd) throws IOException {
        return new ProcessBuilder(Testbed.inNode(spec, node, cmd))
                .redirectOutput(stdout.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(stdout.resolveSibling(stdout.getFileName() + ".err").toFile()))
                .start();
    }

    private static void awaitListening(TestbedSpec spec, CommandRunner shell, int port) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            String out = shell.run(Testbed.inNode(spec, "h" + RECEIVER,
                    List.of("ss", "-Hltn", "sport = :" + port))).stdout();
            if (!out.isBlank()) {
                return;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for iperf3 on port " + port, e);
            }
        }
        throw new IOException("iperf3 server on h" + RECEIVER + ":" + port + " did not start listening within 10 s");
    }

    /** Stops whatever is still running (our own child processes only). */
    @Override
    public void close() {
        for (Process p : clients.values()) {
            p.destroy();
        }
        for (Process p : servers.values()) {
            p.destroy();
        }
    }
}
