package io.saba.controller.topology;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * A source of paths discovered from a live fabric, chosen in the configuration by {@code topology: {discover: NAME,
 * ...}} and found through {@code META-INF/services/io.saba.controller.topology.PathResolverProvider} (the
 * InfiniBand one lives in module {@code fabric-infiniband}).
 */
public interface PathResolverProvider {
    String name();

    /**
     * @param options the {@code topology} mapping (provider-specific keys)
     * @param source  names the configuration in error messages
     * @param base    directory relative paths are resolved against
     */
    PathResolver create(JsonNode options, String source, Path base);

    /** The provider named {@code name}; fails listing the names available. */
    static PathResolverProvider named(String name) {
        Map<String, PathResolverProvider> all = new TreeMap<>();
        for (PathResolverProvider p : ServiceLoader.load(PathResolverProvider.class)) {
            if (all.put(p.name(), p) != null) {
                throw new IllegalStateException("two path resolvers are named '" + p.name() + "'");
            }
        }
        PathResolverProvider p = all.get(name);
        if (p == null) {
            throw new IllegalArgumentException("unknown topology discovery '" + name + "'; available: " + all.keySet()
                    + (name.equals("infiniband") ? " (module saba-fabric-infiniband is not on the class path)" : ""));
        }
        return p;
    }
}
