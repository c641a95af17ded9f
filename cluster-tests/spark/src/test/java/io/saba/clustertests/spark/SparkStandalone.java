package io.saba.clustertests.spark;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.clustertests.Daemons;
import io.saba.clustertests.Ports;
import io.saba.clustertests.StandaloneController;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Spark standalone cluster as {@code sbin/start-master.sh} and {@code sbin/start-worker.sh} start one: a
 * {@code Master} and two {@code Worker}s, each a JVM of its own, and jobs submitted through {@code SparkSubmit}.
 * Every command is built as {@code bin/spark-class} builds it: {@code org.apache.spark.launcher.Main} prints the
 * JVM's command line (its memory, class path and the module options Spark needs on Java 17, the driver's
 * {@code extraClassPath} in client mode), and that command runs. {@code SPARK_HOME/jars} holds Spark's Maven jars
 * (the module's POM copies them); nothing of Saba's is there.
 */
final class SparkStandalone {
    private final Daemons daemons;
    private final Path dir;
    private final Map<String, String> env;
    private final String master;
    private int submissions;

    private SparkStandalone(Daemons daemons, Path dir, Map<String, String> env, String master) {
        this.daemons = daemons;
        this.dir = dir;
        this.env = env;
        this.master = master;
    }

    /** Starts the master and {@code workers} workers ({@code cores} cores, 1 GB each) and waits until all are alive. */
    static SparkStandalone start(Daemons daemons, Path dir, int workers, int cores) throws IOException {
        Path conf = Files.createDirectories(dir.resolve("conf"));
        Map<String, String> env = Map.of(
                "SPARK_HOME", StandaloneController.required("spark.home"),
                "SPARK_SCALA_VERSION", StandaloneController.required("spark.scala.version"),
                "SPARK_CONF_DIR", conf.toString(),
                "JAVA_HOME", System.getProperty("java.home"),
                "SPARK_LOCAL_IP", "127.0.0.1",
                "SPARK_DAEMON_MEMORY", "256m");
        int port = Ports.free();
        int ui = Ports.free();
        SparkStandalone c = new SparkStandalone(daemons, dir, env, "spark://127.0.0.1:" + port);
        c.spark("master", "org.apache.spark.deploy.master.Master", List.of("--host", "127.0.0.1", "--port",
                Integer.toString(port), "--webui-port", Integer.toString(ui)));
        for (int i = 0; i < workers; i++) {
            c.spark("worker-" + i, "org.apache.spark.deploy.worker.Worker", List.of("--host", "127.0.0.1",
                    "--cores", Integer.toString(cores), "--memory", "1g", "--webui-port",
                    Integer.toString(Ports.free()), "--work-dir",
                    Files.createDirectories(daemons.logDir().resolve("work-" + i)).toString(), c.master));
        }
        ObjectMapper json = new ObjectMapper();
        await(workers + " workers alive at the master").atMost(Duration.ofMinutes(5)).until(() -> {
            try {
                return json.readTree(URI.create("http://127.0.0.1:" + ui + "/json/").toURL())
                        .path("aliveworkers").asInt() >= workers;
            } catch (IOException notUp) {
                return false;
            }
        });
        return c;
    }

    String master() {
        return master;
    }

    /** {@code spark-submit ARGS} in a process of its own (cwd: the test's directory); its output is in the logs. */
    Process submit(String name, List<String> args) throws IOException {
        submissions++;
        return spark("submit-" + submissions + "-" + name, "org.apache.spark.deploy.SparkSubmit", args);
    }

    Path log(String name) {
        return daemons.log(name);
    }

    /** What {@code bin/spark-class CLASS ARGS} runs. */
    private Process spark(String name, String mainClass, List<String> args) throws IOException {
        List<String> launcher = new ArrayList<>(List.of(java(), "-Xmx128m", "-cp",
                env.get("SPARK_HOME") + "/jars/*", "org.apache.spark.launcher.Main", mainClass));
        launcher.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(launcher).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
                throw new IOException("Spark's launcher failed for " + mainClass + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        // as bin/spark-class reads it: lines to show, a NUL and a newline, then the command's words, each ending in NUL
        int start = out.indexOf("\0\n");
        if (start < 0) {
            throw new IOException("Spark's launcher printed no command for " + mainClass + ": " + out);
        }
        List<String> command = List.of(out.substring(start + 2).split("\0"));
        return daemons.start(name, command, env, dir);
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
