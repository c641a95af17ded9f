package io.saba.controller.topology.infiniband;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

    /**
     * @param ca     HCA name for {@code -C}, null for the tools' default
     * @param caPort HCA port for {@code -P}, 0 for the default
     */
    public IbTools(Map<String, String> env, String ca, int caPort, long timeoutMillis) {
        this.env = Map.copyOf(env);
        this.ca = ca;
        this.caPort = caPort;
        this.timeoutMillis = timeoutMillis;
    }

    /** The environment that sends umad to an ibsim instance listening under {@code socketName}. */
    public static Map<String, String> ibsimEnv(String socketName) {
        return Map.of("LD_PRELOAD", UMAD2SIM, "IBSIM_SOCKNAME", socketName);
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
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + tool + " (Debian package infiniband-diags): "
                    + e.getMessage(), e);
        }
        try {
            p.getOutputStream().close();
        } catch (IOException e) {
            // the tool reads no input
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        try {
            if (!p.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + " did not finish within " + timeoutMillis
                        + " ms");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): "
                        + err.get().strip());
            }
            return out.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted while running " + tool, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("reading " + tool + "'s output failed", e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    /** Discovers the subnet and every switch's forwarding table. */
    public IbSubnet discover() {
        String net = run("ibnetdiscover");
        String fts = run("dump_fts");
        return DiscoveryParser.parse(net, fts, "ibnetdiscover");
    }
}
