package io.saba.controller.topology.infiniband;

import com.fasterxml.jackson.databind.JsonNode;
import io.saba.controller.fabric.infiniband.InfinibandOptions;
import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.PathResolverProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code topology: {discover: infiniband, …}}. Keys, besides {@link InfinibandOptions}'s:
 * <pre>
 * addresses: {Hca1: [10.0.0.1], "guid:0x0002c903000a1b2c": [10.0.0.2], "lid:7": [10.0.0.3]}   # IPoIB IP → host
 * queues: 8              # VLs Saba uses per port (VL0 = non-Saba); ports with fewer OperVLs fail at push time
 * multipath: base        # base | all: which LMC routes a connection is charged to
 * refresh-seconds: 5     # re-discovery period (0: on demand only)
 * subnet-wait-seconds: 0 # at start, wait at most this long for the subnet manager to route the configured hosts
 * </pre>
 */
public final class InfinibandPathResolverProvider implements PathResolverProvider {
    private static final Set<String> KEYS = Set.of("discover", "ibsim", "env", "ca", "ca-port",
            "tool-timeout-seconds", "addresses", "queues", "multipath", "refresh-seconds", "subnet-wait-seconds");
    /**
     * How often to re-discover by default: how long a re-route (or OpenSM's first sweep) takes to reach Saba's
     * tables, against a discovery's cost, about 13 SMPs per host and tens of milliseconds of the tools' CPU
     * (measured on ibsim, module README): cheap for the controller's host, and for the subnet up to a few hundred
     * hosts; large fabrics raise it.
     */
    public static final int DEFAULT_REFRESH_SECONDS = 5;

    private static int nonNegative(Function<String, String> opt, String key, int dflt, String source) {
        int v = InfinibandOptions.integer(opt, key, dflt, source);
        if (v < 0) {
            throw new IllegalArgumentException(source + "." + key + ": " + v + " is negative (0 turns it off)");
        }
        return v;
    }

    @Override
    public String name() {
        return "infiniband";
    }

    @Override
    public PathResolver create(JsonNode n, String source, Path base) {
        n.fieldNames().forEachRemaining(k -> {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException(source + ": unknown key '" + k + "' for infiniband discovery; known: "
                        + new java.util.TreeSet<>(KEYS));
            }
        });
        Function<String, String> opt = k -> n.hasNonNull(k) ? n.get(k).asText() : null;
        IbTools tools = InfinibandOptions.tools(opt, source);
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        n.path("addresses").fields().forEachRemaining(e -> {
            List<String> ips = new ArrayList<>();
            if (e.getValue().isArray()) {
                e.getValue().forEach(ip -> ips.add(ip.asText()));
            } else {
                ips.add(e.getValue().asText());
            }
            addresses.put(e.getKey(), ips);
        });
        boolean[] first = {true};
        // the first discovery is the controller's start: its failures are one line, exit 2
        return new InfinibandPathResolver(() -> {
            if (first[0]) {
                first[0] = false;
                return tools.discoverAtStart();
            }
            return tools.discover();
        }, addresses,
                InfinibandOptions.integer(opt, "queues", 8, source),
                InfinibandOptions.choice(opt, "multipath", InfinibandPathResolver.Multipath.BASE,
                        InfinibandPathResolver.Multipath.class, source),
                nonNegative(opt, "refresh-seconds", DEFAULT_REFRESH_SECONDS, source),
                nonNegative(opt, "subnet-wait-seconds", 0, source));
    }
}
