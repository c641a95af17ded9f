package io.saba.controller.topology.infiniband;

import java.io.IOException;
import java.io.UncheckedIOException;
import io.saba.process.Host;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A simulated subnet for tests and benchmarks: {@code ibsim} serving a net file on a socket name of its own, and a
 * real OpenSM under {@code LD_PRELOAD=libumad2sim.so} that brings it up (assigns LIDs, programs every forwarding
 * table). {@link #close} kills both (and a shutdown hook does, should the JVM die first). {@link #missing} says
 * which tool is absent, so that tests skip and benchmarks refuse with the reason.
 */
public final class IbSim implements AutoCloseable {
    private static final AtomicInteger COUNT = new AtomicInteger();

    private final Path dir;
    private final String socket;
    private final List<Process> processes = new ArrayList<>();
    private final Thread hook;
    private final IbTools tools;
    private Process ibsim;
    private Process opensm;
    private int opensmStarts;
    private List<String> opensmCommand;
    private Map<String, String> opensmEnv;

    /** Why a simulated subnet cannot run here (a tool that is not installed), or empty when it can. */
    public static Optional<String> missing() {
        for (String tool : List.of("ibsim", "opensm", "ibnetdiscover", "dump_fts", "ibtracert", "smpquery")) {
            if (!onPath(tool)) {
                return Optional.of(tool + " is not installed (Debian: ibsim-utils opensm infiniband-diags)");
            }
        }
        if (!Files.exists(Path.of(IbTools.UMAD2SIM))) {
            return Optional.of(IbTools.UMAD2SIM + " missing (Debian: ibsim-utils)");
        }
        return Optional.empty();
    }

    /** On the PATH, or in /usr/sbin, where Debian puts the diags and which a user's PATH may lack. */
    private static boolean onPath(String tool) {
        return Host.onPath(tool) || Files.isExecutable(Path.of("/usr/sbin", tool));
    }

    /**
     * Starts ibsim on {@code netFile} and OpenSM with the given LMC, and waits until every host has a LID and every
     * switch routes to every host LID.
     */
    public IbSim(Path netFile, int lmc) {
        this(netFile, lmc, List.of());
    }

    /** @param opensmArgs more OpenSM options, e.g. {@code -Q} (QoS on) */
    public IbSim(Path netFile, int lmc, List<String> opensmArgs) {
        this(netFile, lmc, opensmArgs, true);
    }

    /**
     * ibsim alone, as a fabric is before its subnet manager's first sweep: every LID 0, no forwarding table (a
     * controller started now finds hosts but no route). {@link #startOpenSm} brings it up.
     */
    public static IbSim withoutSubnetManager(Path netFile, int lmc) {
        return new IbSim(netFile, lmc, List.of(), false);
    }

    private IbSim(Path netFile, int lmc, List<String> opensmArgs, boolean startOpenSm) {
        try {
            dir = Files.createTempDirectory("saba-ibsim");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        socket = "saba" + ProcessHandle.current().pid() + "x" + COUNT.incrementAndGet();
        tools = new IbTools(IbTools.ibsimEnv(socket), null, 0, 60_000);
        hook = new Thread(this::killAll, "ibsim-killer");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            ibsim = start(List.of("ibsim", "-s", netFile.toString()), Map.of("IBSIM_SOCKNAME", socket), "ibsim");
            waitFor(() -> !ibsim.isAlive() || answers(), 20_000);
            if (!ibsim.isAlive()) {
                throw new IllegalStateException("ibsim exited: " + log("ibsim.log"));
            }
            createDirectories(dir.resolve("cache"));
            // a 2 s sweep so a cable pulled on ibsim's console is re-routed quickly
            List<String> osm = new ArrayList<>(List.of("opensm", "-f", dir.resolve("opensm.log").toString(),
                    "-l", String.valueOf(lmc), "-s", "2"));
            osm.addAll(opensmArgs);
            Map<String, String> env = new java.util.HashMap<>(tools.env());
            env.put("OSM_CACHE_DIR", dir.resolve("cache").toString());
            env.put("OSM_TMP_DIR", dir.toString());
            opensmCommand = List.copyOf(osm);
            opensmEnv = Map.copyOf(env);
            if (startOpenSm) {
                startOpenSm();
            }
        } catch (RuntimeException e) {
            close();
            throw new IllegalStateException("the simulated subnet did not come up: " + e.getMessage() + "\nibsim: "
                    + log("ibsim.log") + "\nopensm: " + log("opensm1.out"), e);
        }
    }

    /** Starts OpenSM (the constructor did, unless {@link #withoutSubnetManager}); waits until it routed the subnet. */
    public void startOpenSm() {
        if (opensm != null && opensm.isAlive()) {
            throw new IllegalStateException("OpenSM runs already");
        }
        opensm = start(opensmCommand, opensmEnv, "opensm" + (++opensmStarts) + ".out");
        waitFor(this::subnetUp, 60_000);
    }

    private static void createDirectories(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Process start(List<String> cmd, Map<String, String> env, String logName) {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(logName).toFile()).directory(dir.toFile());
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            synchronized (processes) {
                processes.add(p);
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + cmd.get(0), e);
        }
    }

    /** ibsim serves MADs (its console output is block-buffered, so the log cannot tell). */
    private boolean answers() {
        try {
            tools.run("ibnetdiscover");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private boolean subnetUp() {
        try {
            IbSubnet f = tools.discover();
            return !f.hosts().isEmpty() && f.unrouted(f.hosts().keySet()).isEmpty();
        } catch (RuntimeException e) {
            return false;
        }
    }

    public interface Check {
        boolean ok() throws Exception;
    }

    public static void waitFor(Check c, long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (System.nanoTime() < end) {
                if (c.ok()) {
                    return;
                }
                Thread.sleep(200);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("not ready after " + millis + " ms");
    }

    private String log(String name) {
        try {
            Path p = dir.resolve(name);
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (IOException e) {
            return "";
        }
    }

    /** Tools (ibnetdiscover, dump_fts, ibtracert, smpquery …) talking to this subnet. */
    public IbTools tools() {
        return tools;
    }

    public String socket() {
        return socket;
    }

    public Map<String, String> env() {
        return tools.env();
    }

    /** Types a command on ibsim's console, e.g. {@code Unlink "Switch1"[5]} (pulls a cable). */
    public void console(String command) {
        try {
            ibsim.getOutputStream().write((command + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            ibsim.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("ibsim's console is gone", e);
        }
    }

    /**
     * Stops OpenSM and starts a new one with the same options, as an SM restart or fail-over does; waits until the
     * subnet is routed again. A new master sweeps with "force update" on, so with QoS on it rewrites every port's
     * VL tables.
     */
    public void restartOpenSm() {
        opensm.destroy();
        try {
            opensm.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        opensm = null;
        startOpenSm();
    }

    /** Waits until OpenSM has routed the subnet again (every switch reaches every host LID). */
    public void awaitRouted(long millis) {
        waitFor(this::subnetUp, millis);
    }

    public Path dir() {
        return dir;
    }

    private void killAll() {
        synchronized (processes) {
            for (int i = processes.size() - 1; i >= 0; i--) {
                Process p = processes.get(i);
                p.destroy();
                try {
                    if (!p.waitFor(3, TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                        p.waitFor(3, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            processes.clear();
        }
    }

    @Override
    public void close() {
        killAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }
}
