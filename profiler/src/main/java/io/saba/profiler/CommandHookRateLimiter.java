package io.saba.profiler;

import io.saba.process.CommandResult;
import io.saba.process.ProcessRunner;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
        CommandResult r = new ProcessRunner(timeout, Map.of("SABA_RATE_PERCENT", p, "SABA_RATE_FRACTION", f)).run(cmd);
        if (r.notStarted()) {
            throw new IllegalStateException("cannot run the rate hook " + hook + ": " + r.whyNotStarted());
        }
        if (r.timedOut()) {
            throw new IllegalStateException("rate hook did not finish in " + timeout + " at " + p + " %: " + hook);
        }
        if (r.interrupted()) {
            throw new IllegalStateException("interrupted while setting the rate");
        }
        if (!r.ok()) {
            throw new IllegalStateException("rate hook failed at " + p + " % (exit " + r.exitCode() + "): "
                    + hook + ": " + (r.stdout() + r.stderr()).strip());
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
