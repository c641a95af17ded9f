package io.saba.profiler;

import io.saba.controller.shell.CommandResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * An operator's script sets the NIC rates of a real cluster: {@code sh -c HOOK} with {@code {percent}} and
 * {@code {fraction}} replaced and {@code SABA_RATE_PERCENT} / {@code SABA_RATE_FRACTION} in its environment
 * (e.g. a loop of {@code ssh node tc class change ... rate $((10 * SABA_RATE_PERCENT))mbit}). A non-zero exit or
 * a hook that hangs stops the profile, naming the hook and its output.
 */
public final class CommandHookRateLimiter implements RateLimiter {
    private final String hook;
    private final String fabric;
    private final Duration timeout;

    public CommandHookRateLimiter(String hook, String fabric, Duration timeout) {
        if (hook == null || hook.isBlank()) {
            throw new IllegalArgumentException("the rate hook command is empty");
        }
        this.hook = hook;
        this.fabric = fabric == null ? "set by rate hook: " + hook : fabric;
        this.timeout = timeout;
    }

    @Override
    public void apply(double percent) {
        String p = number(percent);
        String f = number(percent / 100);
        List<String> cmd = List.of("sh", "-c", hook.replace("{percent}", p).replace("{fraction}", f));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("SABA_RATE_PERCENT", p);
        pb.environment().put("SABA_RATE_FRACTION", f);
        try {
            Process proc = pb.start();
            proc.getOutputStream().close();
            // read on the side: a hook that hangs must not hang us in a read
            java.util.concurrent.CompletableFuture<byte[]> output = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            return proc.getInputStream().readAllBytes();
                        } catch (IOException e) {
                            return new byte[0];
                        }
                    });
            if (!proc.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                proc.destroyForcibly();
                throw new IllegalStateException("rate hook did not finish in " + timeout + " at " + p + " %: " + hook);
            }
            CommandResult r = new CommandResult(cmd, proc.exitValue(), new String(output.join(), StandardCharsets.UTF_8), "");
            if (!r.ok()) {
                throw new IllegalStateException("rate hook failed at " + p + " % (exit " + r.exitCode() + "): "
                        + hook + ": " + r.stdout().strip());
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run the rate hook " + hook + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while setting the rate", e);
        }
    }

    @Override
    public String fabric() {
        return fabric;
    }

    /** A level as files and journals write it: "25", "12.5". */
    public static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
    }
}
