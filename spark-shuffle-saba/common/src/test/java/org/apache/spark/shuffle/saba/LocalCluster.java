package org.apache.spark.shuffle.saba;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Real executor JVMs from Maven jars: {@code local-cluster[2,1,1024]} launches executors from
 * {@code $SPARK_HOME/jars}, so this fills that folder (surefire points SPARK_HOME at target/spark-home) with links
 * to the test class path's jars and hands the class-path directories (our modules' target/classes) to executors
 * through extraClassPath.
 */
final class LocalCluster {
    static final String MASTER = "local-cluster[2,1,1024]";
    /** Each version module's own class, under the one name users configure. */
    static final String MANAGER = "org.apache.spark.shuffle.saba.SabaShuffleManager";
    static final String USER_PLUGINS_PROPERTY = "saba.test.spark.plugins";
    static final String USER_PLUGINS = System.getProperty(USER_PLUGINS_PROPERTY, "");
    static final String MODULE_OPTIONS = String.join(" ",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");

    private LocalCluster() {
    }

    static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** Creates $SPARK_HOME/jars once (links to the class path's jars). */
    static synchronized void prepareSparkHome() {
        String home = System.getenv("SPARK_HOME");
        if (home == null) {
            throw new IllegalStateException("SPARK_HOME is not set (surefire sets it to target/spark-home)");
        }
        Path jars = Path.of(home, "jars");
        try {
            Files.createDirectories(jars);
            for (String e : classPath().split(File.pathSeparator)) {
                Path p = Path.of(e);
                if (e.endsWith(".jar") && Files.isRegularFile(p)) {
                    Path link = jars.resolve(p.getFileName());
                    if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, p.toAbsolutePath());
                    }
                }
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** A configuration for real executors; shuffle blocks of same-host executors still cross the network. */
    static SparkConf conf(String appName) {
        prepareSparkHome();
        String dirs = Arrays.stream(classPath().split(File.pathSeparator))
                .filter(e -> Files.isDirectory(Path.of(e))).reduce((a, b) -> a + File.pathSeparator + b).orElse("");
        return new SparkConf().setMaster(MASTER).setAppName(appName)
                .set("spark.executor.extraClassPath", dirs)
                .set("spark.executor.extraJavaOptions", MODULE_OPTIONS)
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                // local-cluster executors share a host; without this they read each other's shuffle files from
                // disk and no shuffle byte crosses a socket
                .set("spark.shuffle.readHostLocalDisk", "false")
                .set("spark.ui.enabled", "false")
                .set("spark.executor.memory", "512m")
                .set("spark.network.timeout", "300s")
                .set("spark.executor.heartbeatInterval", "20s")
                .set("spark.rpc.askTimeout", "120s");
    }

    /**
     * Turns Saba on as a user of the Spark version under test does: the shuffle manager, and on Spark 4 the plugin
     * in {@code spark.plugins} (the version module's surefire sets {@code saba.test.spark.plugins} to what its
     * README tells users to list; empty for Spark 3.5, whose shuffle manager adds the plugin itself).
     */
    static SparkConf sabaOn(SparkConf c) {
        c.set("spark.shuffle.manager", MANAGER);
        if (!USER_PLUGINS.isEmpty()) {
            c.set(SabaPlugin.PLUGINS, USER_PLUGINS);
        }
        return c;
    }

    static SparkConf withSaba(SparkConf c, String controller, String workload) {
        sabaOn(c).set(SabaConf.WORKLOAD, workload)
                .set(SabaConf.LEVEL_REFRESH, "300ms");
        if (controller != null) {
            c.set(SabaConf.ADDRESS, controller);
        }
        return c;
    }

    /**
     * The test job: per key, the record count and the summed value length, over {@code n} records in {@code keys}
     * keys, 4 map and 4 reduce partitions. groupByKey does no map-side combining, so every record crosses the
     * shuffle (about 50 bytes each).
     */
    static Map<Integer, Long> job(JavaSparkContext jsc, int n, int keys) {
        List<Integer> xs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            xs.add(i);
        }
        JavaPairRDD<Integer, String> pairs = jsc.parallelize(xs, 4)
                .mapToPair(i -> new Tuple2<>(i % keys, "v" + i + "-".repeat(40)));
        Map<Integer, Long> out = new TreeMap<>();
        for (Tuple2<Integer, Long> t : pairs.groupByKey(4).mapValues(LocalCluster::summary).collect()) {
            out.put(t._1(), t._2());
        }
        return out;
    }

    private static long summary(Iterable<String> values) {
        long count = 0;
        long length = 0;
        for (String v : values) {
            count++;
            length += v.length();
        }
        return count * 1_000_000_000L + length;
    }
}
