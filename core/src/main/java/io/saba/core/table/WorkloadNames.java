package io.saba.core.table;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The paper's ten workloads by the names the sensitivity table keys them with, and every other spelling Saba
 * accepts for them (short names, HiBench's names): the one place a workload's aliases live, for the workload
 * driver, the command line and the HiBench report reader alike.
 */
public final class WorkloadNames {
    /** The paper's ten workloads (Table 1), as table keys. */
    public static final List<String> PAPER = List.of("lr", "rf", "gbt", "svm", "pagerank", "nweight", "sql",
            "wordcount", "sort", "nutchindexing");

    private static final Map<String, String> ALIASES = Map.ofEntries(
            Map.entry("logisticregression", "lr"),
            Map.entry("randomforest", "rf"),
            Map.entry("gradientboostingtree", "gbt"),
            Map.entry("gradientboostedtrees", "gbt"),
            Map.entry("linearsvc", "svm"),
            Map.entry("pr", "pagerank"),
            Map.entry("nw", "nweight"),
            Map.entry("join", "sql"),
            Map.entry("sqljoin", "sql"),
            Map.entry("wc", "wordcount"),
            Map.entry("terasort", "sort"),
            Map.entry("ni", "nutchindexing"),
            Map.entry("nutch", "nutchindexing"),
            Map.entry("invertedindex", "nutchindexing"),
            Map.entry("inverted-index", "nutchindexing"));

    private WorkloadNames() {
    }

    /**
     * A name as the table keys it: an alias becomes its workload's key (wc → wordcount, terasort → sort, ...); any
     * other name is only trimmed and lower-cased, as {@link SensitivityTable#key} does.
     */
    public static String canonical(String name) {
        String k = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return ALIASES.getOrDefault(k, k);
    }

    /**
     * The workload a HiBench report type runs: its language/engine prefix (ScalaSpark, JavaSpark, PythonSpark,
     * SabaSpark, Spark, Hadoop) dropped, e.g. ScalaSparkTerasort → sort.
     *
     * @throws IllegalArgumentException for a type none of the paper's ten workloads runs
     */
    public static String ofHibenchType(String type) {
        String w = canonical(type.replaceFirst("^(ScalaSpark|JavaSpark|PythonSpark|SabaSpark|Spark|Hadoop)", ""));
        if (!PAPER.contains(w)) {
            throw new IllegalArgumentException("HiBench type '" + type + "' is none of the paper's ten workloads");
        }
        return w;
    }
}
