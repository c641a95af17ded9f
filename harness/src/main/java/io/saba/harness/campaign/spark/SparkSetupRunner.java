package io.saba.harness.campaign.spark;

import io.saba.controller.alloc.AllocationPipeline;
import io.saba.core.alloc.Allocator;
import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.SetupRunner;
import io.saba.harness.campaign.TestbedSetups;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Campaign setups as Spark tasks, one setup per task, on the cluster named by {@code master} ({@code spark://…},
 * {@code yarn}, {@code local-cluster[…]}, {@code local[*]}). Each executor builds the campaign context once
 * ({@link TestbedSetups} caches it per JVM) and returns its setups' rows; the driver appends them to the campaign's
 * CSV batch by batch, so progress shows and an interrupted run resumes like a local one. Rows equal a local run's
 * for the same settings: a setup's result depends only on its index and the settings.
 *
 * <p>Executors need our classes: jars on this JVM's class path are shipped with {@code spark.jars}; class
 * directories (a development checkout) go to {@code spark.executor.extraClassPath}, which only works where the
 * executors see this file system (local-cluster, one machine).
 */
public final class SparkSetupRunner implements SetupRunner, AutoCloseable {
    private final JavaSparkContext spark;
    private final String master;

    private SparkSetupRunner(JavaSparkContext spark, String master) {
        this.spark = spark;
        this.master = master;
    }

    /**
     * @param master Spark master URL
     * @param conf   extra Spark settings ({@code --conf key=value}), applied last
     */
    public static SparkSetupRunner start(String master, Map<String, String> conf) {
        SparkConf c = new SparkConf().setMaster(master).setAppName("saba-campaign")
                .set("spark.ui.enabled", "false");
        List<String> jars = new ArrayList<>();
        List<String> dirs = new ArrayList<>();
        for (Path p : codeLocations()) {
            (Files.isDirectory(p) ? dirs : jars).add(p.toString());
        }
        if (!jars.isEmpty()) {
            c.set("spark.jars", String.join(",", jars));
        }
        if (!dirs.isEmpty()) {
            c.set("spark.executor.extraClassPath", String.join(File.pathSeparator, dirs));
        }
        conf.forEach(c::set);
        return new SparkSetupRunner(new JavaSparkContext(c), master);
    }

    /**
     * Where the classes executors need come from: this module, the core and the controller's allocation pipeline
     * (a setup's {@code Allocation}, Saba's planner); Spark ships Commons Math itself.
     */
    private static Set<Path> codeLocations() {
        Set<Path> out = new LinkedHashSet<>();
        for (Class<?> k : List.of(SparkSetupRunner.class, Allocator.class, AllocationPipeline.class)) {
            CodeSource src = k.getProtectionDomain().getCodeSource();
            if (src == null) {
                continue;
            }
            try {
                out.add(Path.of(src.getLocation().toURI()));
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate the classes of " + k.getName(), e);
            }
        }
        return out;
    }

    @Override
    public String describe() {
        return "spark " + master + ", " + spark.defaultParallelism() + " task slots";
    }

    @Override
    public void runAll(TestbedSetups setups, List<Integer> pending, Consumer<List<JobOutcome>> done) {
        // batches of two waves: the CSV and the progress line advance as batches finish
        int batch = Math.max(1, 2 * spark.defaultParallelism());
        for (int from = 0; from < pending.size(); from += batch) {
            List<Integer> slice = pending.subList(from, Math.min(pending.size(), from + batch));
            List<List<JobOutcome>> results = spark.parallelize(new ArrayList<>(slice), slice.size())
                    .map(setups::run).collect();
            results.forEach(done);
        }
    }

    @Override
    public void close() {
        spark.close();
    }
}
