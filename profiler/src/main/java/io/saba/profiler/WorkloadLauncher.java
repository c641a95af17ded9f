package io.saba.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Launches JVMs from the Spark home the workloads module builds (workloads/target/spark-home: jars/ holds Spark,
 * MLlib, GraphX and the workloads; conf/ a quiet log4j2 file): workload drivers, and the standalone master and
 * workers of {@link TestbedSparkCluster}. A command may be placed in a network namespace (a testbed host).
 *
 * @param sparkHome the Spark home
 * @param java      the java binary
 */
public record WorkloadLauncher(Path sparkHome, String java) {
    public static final String DRIVER_MAIN = "io.saba.workloads.WorkloadMain";
    public static final String SCALA_VERSION = "2.12";
    /** What Spark's own launcher adds for Java 17. */
    public static final List<String> MODULE_OPTIONS = List.of(
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false");

    /**
     * Finds the Spark home: {@code explicit}, else $SABA_SPARK_HOME, else workloads/target/spark-home under the
     * checkout bin/saba runs from (system property saba.home) or the working directory.
     *
     * @throws IllegalArgumentException naming where it looked, if none holds jars/
     */
    public static WorkloadLauncher locate(Path explicit) {
        List<Path> tried = new ArrayList<>();
        if (explicit != null) {
            tried.add(explicit);
        } else {
            String env = System.getenv("SABA_SPARK_HOME");
            if (env != null && !env.isBlank()) {
                tried.add(Path.of(env));
            }
            String home = System.getProperty("saba.home");
            if (home != null) {
                tried.add(Path.of(home, "workloads", "target", "spark-home"));
            }
            tried.add(Path.of("workloads", "target", "spark-home"));
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p.resolve("jars").resolve("saba-workloads-0.1.0-SNAPSHOT.jar"))) {
                return new WorkloadLauncher(p.toAbsolutePath(), Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString());
            }
        }
        throw new IllegalArgumentException("no Spark home with the workloads found (looked in " + tried + "); build it "
                + "with `mvn -B -q -DskipTests package` or pass --spark-home");
    }

    /** The checkout's folder of the shuffle jar for the workloads' Spark (3.5, Scala 2.12). */
    public static final String SHUFFLE_JAR_DIR = "spark-shuffle-saba/spark-3.5/target";
    /** How that jar's name starts ({@code saba-spark-3.5_2.12-VERSION-shaded.jar}). */
    public static final String SHUFFLE_JAR_PREFIX = "saba-spark-3.5_2.12-";

    /**
     * Saba's shaded Spark shuffle jar for this Spark home's Spark (3.5, Scala 2.12, as the workloads module builds
     * it): in the Spark home's jars/ (where scripts link it), else the build's own
     * ({@code spark-shuffle-saba/spark-3.5/target/saba-spark-3.5_2.12-*-shaded.jar} of the checkout this Spark home
     * belongs to).
     */
    public Optional<Path> sabaShuffleJar() {
        List<Path> dirs = new ArrayList<>(List.of(sparkHome.resolve("jars")));
        Path checkout = sparkHome.getParent() == null || sparkHome.getParent().getParent() == null ? null
                : sparkHome.getParent().getParent().getParent(); // CHECKOUT/workloads/target/spark-home
        if (checkout != null) {
            dirs.add(checkout.resolve(SHUFFLE_JAR_DIR));
        }
        for (Path dir : dirs) {
            try (Stream<Path> files = Files.list(dir)) {
                Optional<Path> jar = files.filter(f -> {
                    String n = f.getFileName().toString();
                    return n.startsWith(SHUFFLE_JAR_PREFIX) && n.endsWith("-shaded.jar");
                }).sorted().findFirst();
                if (jar.isPresent()) {
                    return jar;
                }
            } catch (IOException e) {
                // no such folder: try the next
            }
        }
        return Optional.empty();
    }

    /** $SPARK_HOME/conf then every jar: the same class path standalone workers give executors. */
    public String classPath() {
        return sparkHome.resolve("conf") + ":" + sparkHome.resolve("jars") + "/*";
    }

    /** SPARK_HOME and the Scala version, which Spark's executor launch needs to find jars/. */
    public Map<String, String> environment() {
        return Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", SCALA_VERSION);
    }

    /** {@code [ip netns exec NS] java OPTS -cp CP MAIN ARGS}. */
    public List<String> javaCommand(String namespace, String heap, String mainClass, List<String> args) {
        return javaCommand(namespace, heap, mainClass, args, List.of());
    }

    /** As above, with {@code extraClassPath} after the Spark home's (e.g. Saba's shaded shuffle jar). */
    public List<String> javaCommand(String namespace, String heap, String mainClass, List<String> args,
                                    List<Path> extraClassPath) {
        List<String> c = new ArrayList<>();
        if (namespace != null) {
            c.addAll(List.of("ip", "netns", "exec", namespace));
        }
        c.add(java);
        c.addAll(MODULE_OPTIONS);
        c.add("-Xmx" + heap);
        StringBuilder cp = new StringBuilder(classPath());
        extraClassPath.forEach(p -> cp.append(':').append(p));
        c.addAll(List.of("-cp", cp.toString(), mainClass));
        c.addAll(args);
        return c;
    }

    /** A workload driver: {@code WorkloadMain NAME ARGS} (ARGS: --scale, --master, --driver-host, --conf ...). */
    public List<String> driver(String namespace, String workload, List<String> args) {
        return driver(namespace, workload, args, List.of());
    }

    /**
     * A driver with jars beyond the Spark home's on its class path: a shuffle manager is created when the driver's
     * SparkContext starts, so its jar must be there (executors get it from {@code spark.executor.extraClassPath}).
     */
    public List<String> driver(String namespace, String workload, List<String> args, List<Path> extraClassPath) {
        List<String> a = new ArrayList<>();
        a.add(workload);
        a.addAll(args);
        return javaCommand(namespace, "1g", DRIVER_MAIN, a, extraClassPath);
    }
}
