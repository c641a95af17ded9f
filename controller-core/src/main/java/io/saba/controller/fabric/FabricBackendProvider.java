package io.saba.controller.fabric;

import java.util.Map;

/**
 * How the controller finds a fabric backend by the name in its configuration ({@code backend: linux}): each
 * backend module lists its provider in {@code META-INF/services/io.saba.controller.fabric.FabricBackendProvider}.
 * Two providers with one name are an error, never a silent choice.
 */
public interface FabricBackendProvider {
    /** The configuration name, e.g. "dry-run". */
    String name();

    /**
     * @param options the {@code backend-options} map from the configuration (backend-specific keys)
     */
    FabricBackend create(Map<String, Object> options);
}
