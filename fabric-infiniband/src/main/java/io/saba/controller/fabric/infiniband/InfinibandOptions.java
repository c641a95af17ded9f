package io.saba.controller.fabric.infiniband;

import io.saba.controller.topology.infiniband.IbTools;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The options shared by the InfiniBand backend ({@code backend-options}) and the path discovery
 * ({@code topology: {discover: infiniband, …}}): where umad is and how long to wait.
 * <pre>
 * ibsim: saba1              # run against ibsim's socket "saba1" (sets LD_PRELOAD=libumad2sim.so, IBSIM_SOCKNAME)
 * env: "K=V K2=V2"          # extra environment for the diags and the SMP agent
 * ca: mlx5_0                # HCA (-C), default: the first
 * ca-port: 1                # HCA port (-P), default: the first active
 * tool-timeout-seconds: 20  # ibnetdiscover / dump_fts (each)
 * </pre>
 */
public final class InfinibandOptions {
    private InfinibandOptions() {
    }

    /** The environment the diags and the SMP agent run with. */
    public static Map<String, String> env(Function<String, String> option, String source) {
        Map<String, String> env = new HashMap<>();
        String ibsim = option.apply("ibsim");
        if (ibsim != null && !ibsim.isBlank()) {
            IbTools.requireIbsim(ibsim.strip());
            env.putAll(IbTools.ibsimEnv(ibsim.strip()));
        }
        String extra = option.apply("env");
        if (extra != null && !extra.isBlank()) {
            for (String kv : extra.strip().split("\\s+")) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(source + ".env: '" + kv + "' is not KEY=VALUE");
                }
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return env;
    }

    public static IbTools tools(Function<String, String> option, String source) {
        String ca = option.apply("ca");
        return new IbTools(env(option, source), ca == null || ca.isBlank() ? null : ca,
                integer(option, "ca-port", 0, source), 1000L * integer(option, "tool-timeout-seconds", 20, source));
    }

    public static int integer(Function<String, String> option, String key, int dflt, String source) {
        String v = option.apply(key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + "." + key + ": '" + v + "' is not a whole number", e);
        }
    }

    public static <E extends Enum<E>> E choice(Function<String, String> option, String key, E dflt, Class<E> type,
                                        String source) {
        String v = option.apply(key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Enum.valueOf(type, v.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + "." + key + ": '" + v + "' is not one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT), e);
        }
    }
}
