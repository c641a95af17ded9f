package io.saba.workloads;

import io.saba.core.table.WorkloadNames;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The ten workloads by sensitivity-table key (the keys of examples/sensitivity-table.json). */
public final class Workloads {
    private static final Map<String, Supplier<Workload>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("lr", MlWorkloads.Lr::new);
        ALL.put("rf", MlWorkloads.Rf::new);
        ALL.put("gbt", MlWorkloads.Gbt::new);
        ALL.put("svm", MlWorkloads.Svm::new);
        ALL.put("pagerank", GraphWorkloads.PageRankWorkload::new);
        ALL.put("nweight", GraphWorkloads.NWeight::new);
        ALL.put("sql", SqlJoin::new);
        ALL.put("wordcount", MicroWorkloads.WordCount::new);
        ALL.put("sort", MicroWorkloads.Sort::new);
        ALL.put("nutchindexing", MicroWorkloads.InvertedIndex::new);
    }

    private Workloads() {
    }

    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /** A fresh instance; also accepts the aliases of {@link WorkloadNames} (wc, pr, nw, ni, join, terasort, ...). */
    public static Workload create(String name) {
        String k = canonical(name);
        Supplier<Workload> s = ALL.get(k);
        if (s == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "' (known: " + String.join(", ", names())
                    + ")");
        }
        return s.get();
    }

    static String canonical(String name) {
        return WorkloadNames.canonical(name);
    }
}
