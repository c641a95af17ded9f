package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import java.util.Objects;

/**
 * A registered Saba application: what allocation needs to know about it.
 *
 * @param id       the application's unique id (e.g. Spark app id, Flink job id)
 * @param workload the profile key its model came from (e.g. {@code lr}); informational here
 * @param model    its sensitivity model
 */
public record Application(String id, String workload, SensitivityModel model) {
    public Application {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an application needs an id");
        }
        Objects.requireNonNull(workload, () -> "application " + id + " needs a workload name");
        Objects.requireNonNull(model, () -> "application " + id + " needs a sensitivity model");
    }
}
