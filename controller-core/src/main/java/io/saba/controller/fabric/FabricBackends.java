package io.saba.controller.fabric;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** Looks backends up by name among the providers on the class path. */
public final class FabricBackends {
    private FabricBackends() {
    }

    /** Provider name → provider; fails when two providers claim one name. */
    public static Map<String, FabricBackendProvider> providers() {
        Map<String, FabricBackendProvider> out = new TreeMap<>();
        for (FabricBackendProvider p : ServiceLoader.load(FabricBackendProvider.class)) {
            FabricBackendProvider prev = out.put(p.name(), p);
            if (prev != null) {
                throw new IllegalStateException("two fabric backends are named '" + p.name() + "': "
                        + prev.getClass().getName() + " and " + p.getClass().getName());
            }
        }
        return out;
    }

    public static FabricBackend create(String name, Map<String, Object> options) {
        Map<String, FabricBackendProvider> all = providers();
        FabricBackendProvider p = all.get(name);
        if (p == null) {
            String module = switch (name) {
                case "linux" -> " (module saba-fabric-linux is not on the class path)";
                case "infiniband" -> " (module saba-fabric-infiniband is not on the class path)";
                case "agents" -> " (module saba-agents is not on the class path)";
                default -> "";
            };
            throw new IllegalArgumentException("unknown fabric backend '" + name + "'; available: " + all.keySet()
                    + module);
        }
        return p.create(options == null ? Map.of() : options);
    }
}
