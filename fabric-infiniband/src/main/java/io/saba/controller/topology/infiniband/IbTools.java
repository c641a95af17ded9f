package io.saba.controller.topology.infiniband;

import io.saba.controller.StartupException;
import io.saba.process.CommandResult;
import io.saba.process.ProcessRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs infiniband-diags tools ({@code ibnetdiscover}, {@code dump_fts}, …) with an environment of their own (under
 * ibsim: {@code LD_PRELOAD=libumad2sim.so}, {@code IBSIM_SOCKNAME}) and an optional HCA/port, each with a timeout.
 */
public final class IbTools {
    /** Where ibsim's umad shim lives on Debian. */
    public static final String UMAD2SIM = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";

    private final Map<String, String> env;
    private final String ca;
    private final int caPort;
    private final long timeoutMillis;
    private final ProcessRunner runner;

    /**
     * @param ca     HCA name for {@code -C}, null for the tools' default
     * @param caPort HCA port for {@code -P}, 0 for the default
     */
    public IbTools(Map<String, String> env, String ca, int caPort, long timeoutMillis) {
        this.env = Map.copyOf(env);
        this.ca = ca;
        this.caPort = caPort;
        this.timeoutMillis = timeoutMillis;
        this.runner = new ProcessRunner(Duration.ofMillis(timeoutMillis), this.env);
    }

    /** The environment that sends umad to an ibsim instance listening under {@code socketName}. */
    public static Map<String, String> ibsimEnv(String socketName) {
        return Map.of("LD_PRELOAD", UMAD2SIM, "IBSIM_SOCKNAME", socketName);
    }

    /**
     * Fails at once, naming the socket, unless an ibsim serves {@code socketName} here: ibsim listens on the abstract
     * Unix socket {@code @NAME:ctl}, which {@code /proc/net/unix} lists (for this network namespace). Without this
     * check the first tool waits its whole timeout for an answer that cannot come.
     *
     * @throws StartupException when no such socket is listed
     */
    public static void requireIbsim(String socketName) {
        Path table = Path.of("/proc/net/unix");
        if (!Files.isReadable(table)) {
            return; // cannot tell here; the tools will
        }
        try (java.util.stream.Stream<String> lines = Files.lines(table)) {
            String want = "@" + socketName + ":ctl";
            if (lines.noneMatch(l -> l.endsWith(" " + want) || l.endsWith(" " + want + "@"))) {
                throw new StartupException("no ibsim serves the socket '" + socketName + "' (no " + want
                        + " in /proc/net/unix): start ibsim with IBSIM_SOCKNAME=" + socketName
                        + ", or give the name it runs under");
            }
        } catch (IOException e) {
            // unreadable after all: the tools will say
        }
    }

    /**
     * Runs the first discovery of a controller's start-up: what goes wrong here (no HCA, tools missing, no subnet
     * manager yet) is the operator's to fix, so it becomes a {@link StartupException} in one line.
     */
    public IbSubnet discoverAtStart() {
        try {
            return discover();
        } catch (StartupException e) {
            throw e;
        } catch (RuntimeException e) {
            String why = String.valueOf(e.getMessage()).replaceAll("\\s*\n\\s*", "; ").strip();
            if (why.contains("can't open UMAD port") || why.contains("can't open MAD port")) {
                throw new StartupException("no InfiniBand HCA to talk to: " + why.replaceFirst(";.*", "")
                        + " (on a machine without one, --ibsim SOCKET talks to a simulated subnet; 'ca'/'ca-port' "
                        + "choose another HCA)", e);
            }
            throw new StartupException("InfiniBand discovery failed: " + why, e);
        }
    }

    public Map<String, String> env() {
        return env;
    }

    /** Runs {@code tool args…} (with -C/-P added) and returns stdout; throws naming the tool on failure. */
    public String run(String tool, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(tool);
        if (ca != null) {
            cmd.add("-C");
            cmd.add(ca);
        }
        if (caPort > 0) {
            cmd.add("-P");
            cmd.add(String.valueOf(caPort));
        }
        cmd.addAll(List.of(args));
        CommandResult r = runner.run(cmd);
        if (r.notStarted()) {
            throw new UncheckedIOException("cannot run " + tool + " (Debian package infiniband-diags): "
                    + r.whyNotStarted(), new IOException(r.whyNotStarted()));
        }
        if (r.timedOut()) {
            throw new IllegalStateException(String.join(" ", cmd) + " did not finish within " + timeoutMillis + " ms");
        }
        if (r.interrupted()) {
            throw new IllegalStateException("interrupted while running " + tool);
        }
        if (!r.ok()) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + r.exitCode() + "): "
                    + r.stderr().strip());
        }
        return r.stdout();
    }

    /** Discovers the subnet and every switch's forwarding table. */
    public IbSubnet discover() {
        String net = run("ibnetdiscover");
        String fts = run("dump_fts");
        return DiscoveryParser.parse(net, fts, "ibnetdiscover");
    }
}
