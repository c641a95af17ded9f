package io.saba.controller.fabric.infiniband;

import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackendProvider;
import io.saba.controller.topology.infiniband.IbTools;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code backend: infiniband}. Options ({@code backend-options}), besides {@link InfinibandOptions}'s:
 * <pre>
 * smp: agent                 # agent (a child JVM with the env above; default) | in-process (this JVM opens umad)
 * mad-timeout-millis: 200    # libibmad's per-MAD timeout
 * call-timeout-millis: 5000  # the most one SMP may take end to end through the agent
 * packet-model: mtu          # mtu: shares counted in full-MTU packets (bulk traffic) | bytes: 64-byte units
 * verify-seconds: 0          # read the tables back every N seconds and report drift (0: only on demand)
 * repair: false              # rewrite Saba's tables where drift is found
 * </pre>
 */
public final class InfinibandBackendProvider implements FabricBackendProvider {
    private static final Set<String> KEYS = Set.of("ibsim", "env", "ca", "ca-port", "tool-timeout-seconds", "smp",
            "mad-timeout-millis", "call-timeout-millis", "packet-model", "verify-seconds", "repair");

    /** Where the SMPs are sent from. */
    public enum SmpMode { AGENT, IN_PROCESS }

    @Override
    public String name() {
        return "infiniband";
    }

    @Override
    public FabricBackend create(Map<String, Object> options) {
        String src = "backend-options";
        for (String k : options.keySet()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(src + ": unknown key '" + k + "' for the infiniband backend; known: "
                        + new java.util.TreeSet<>(KEYS));
            }
        }
        Function<String, String> opt = k -> options.get(k) == null ? null : options.get(k).toString();
        IbTools tools = InfinibandOptions.tools(opt, src);
        int madTimeout = InfinibandOptions.integer(opt, "mad-timeout-millis", 200, src);
        int callTimeout = InfinibandOptions.integer(opt, "call-timeout-millis", 5000, src);
        String ca = opt.apply("ca");
        int caPort = InfinibandOptions.integer(opt, "ca-port", 0, src);
        SmpMode mode = InfinibandOptions.choice(opt, "smp", SmpMode.AGENT, SmpMode.class, src);
        Smp smp = mode == SmpMode.AGENT
                ? new SmpAgent(tools.env(), ca, caPort, madTimeout, callTimeout)
                : new MadSmp(ca, caPort, madTimeout);
        return new InfinibandBackend(smp, tools::discover,
                InfinibandOptions.choice(opt, "packet-model", InfinibandBackend.PacketModel.MTU,
                        InfinibandBackend.PacketModel.class, src),
                InfinibandOptions.integer(opt, "verify-seconds", 0, src),
                Boolean.parseBoolean(opt.apply("repair")));
    }
}
