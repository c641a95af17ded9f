package io.saba.controller.table;

import io.saba.core.corun.CorunProfile;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Workload → sensitivity model, as the controller uses it. Unknown workloads get the <em>default model</em>: the
 * coefficient-wise mean of the table's models (a "typical" workload, so an unprofiled application is neither
 * favoured nor starved), or D(b) = 1 (insensitive) when the table is empty. The mean of polynomials is the
 * polynomial of the mean coefficients, so the default is also the mean predicted slowdown at every share.
 */
public final class ModelCatalog {
    private final Map<String, SensitivityModel> models;
    private final Map<String, CorunProfile> profiles;
    private final SensitivityModel defaultModel;

    /** @param models keyed by workload; keys are normalised as the table normalises them */
    public ModelCatalog(Map<String, SensitivityModel> models) {
        this(models, Map.of());
    }

    /** @param profiles the co-run profiles of the workloads whose entries carry a traffic record */
    public ModelCatalog(Map<String, SensitivityModel> models, Map<String, CorunProfile> profiles) {
        this.models = new TreeMap<>();
        models.forEach((w, m) -> this.models.put(SensitivityTable.key(w), m));
        this.profiles = new TreeMap<>();
        profiles.forEach((w, p) -> this.profiles.put(SensitivityTable.key(w), p));
        this.defaultModel = mean(this.models);
    }

    public static ModelCatalog fromTable(SensitivityTable table) {
        Map<String, SensitivityModel> m = new TreeMap<>();
        Map<String, CorunProfile> p = new TreeMap<>();
        for (Map.Entry<String, TableEntry> e : table.entries().entrySet()) {
            m.put(e.getKey(), e.getValue().model());
            CorunProfile profile = e.getValue().corunProfile();
            if (profile != null) {
                p.put(e.getKey(), profile);
            }
        }
        return new ModelCatalog(m, p);
    }


    /** Parses a sensitivity table file's JSON (core's format); throws IllegalArgumentException naming the flaw. */
    public static ModelCatalog parse(String json, String source) {
        return fromTable(SensitivityTableCodec.parse(json, source));
    }

    public static ModelCatalog empty() {
        return new ModelCatalog(Map.of());
    }

    public boolean knows(String workload) {
        return models.containsKey(SensitivityTable.key(workload));
    }

    public SensitivityModel modelOf(String workload) {
        return models.getOrDefault(SensitivityTable.key(workload), defaultModel);
    }

    /** The workload's co-run profile (traffic record and network-bound share), or null if the table has none. */
    public CorunProfile profileOf(String workload) {
        return workload == null ? null : profiles.get(SensitivityTable.key(workload));
    }

    public SensitivityModel defaultModel() {
        return defaultModel;
    }

    public int size() {
        return models.size();
    }

    public Map<String, SensitivityModel> models() {
        return Map.copyOf(models);
    }

    /** The models' mean (a model of the same space, whatever their families): the default for unknown workloads. */
    private static SensitivityModel mean(Map<String, SensitivityModel> models) {
        return models.isEmpty() ? SensitivityModel.flat() : SensitivityModel.mean(List.copyOf(models.values()));
    }
}
