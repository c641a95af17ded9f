package io.saba.controller.fabric.linux;

import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.FabricBackendProvider;
import java.util.Map;

/** {@code backend: linux} in the controller configuration; options as in {@link LinuxBackendOptions}. */
public final class LinuxTcBackendProvider implements FabricBackendProvider {
    @Override
    public String name() {
        return "linux";
    }

    @Override
    public FabricBackend create(Map<String, Object> options) {
        return LinuxBackendOptions.create(options);
    }
}
