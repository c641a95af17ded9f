package io.saba.clustertests.flink;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A Flink standalone session cluster as {@code bin/start-cluster.sh} starts one: a JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}), each a JVM of its own
 * with {@code --configDir} holding {@code config.yaml}, the class path {@code lib/*}, {@code env.java.opts.all}, and
 * the JVM flags and dynamic settings {@code BashJavaUtils} derives from the configuration (as
 * {@code bin/jobmanager.sh} and {@code bin/taskmanager.sh} take them). Jobs go through {@code flink run}'s entry
 * point, {@code CliFrontend}.
 *
 * <p>{@code lib/} is what the module's POM assembled (flink-dist is not on Maven Central) plus the plugin jar,
 * copied in as the README says.
 */
final class FlinkSession {
    /** Flink 1.20's default config.yaml puts these in {@code env.java.opts.all} for Java 17. */
    private static final String JAVA_OPTS = Stream.of(
            "--add-exports=java.base/sun.net.util", "--add-exports=java.rmi/sun.rmi.registry",
            "--add-exports=java.security.jgss/sun.security.krb5", "--add-opens=java.base/java.lang",
            "--add-opens=java.base/java.net", "--add-opens=java.base/java.io", "--add-opens=java.base/java.nio",
            "--add-opens=java.base/sun.nio.ch", "--add-opens=java.base/java.lang.reflect",
            "--add-opens=java.base/java.text", "--add-opens=java.base/java.time", "--add-opens=java.base/java.util",
            "--add-opens=java.base/java.util.concurrent", "--add-opens=java.base/java.util.concurrent.atomic",
            "--add-opens=java.base/java.util.concurrent.locks").map(o -> o + "=ALL-UNNAMED")
            .reduce((a, b) -> a + " " + b).orElseThrow();
    private static final String RESULT = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final int SLOTS_PER_TASK_MANAGER = 2;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Daemons daemons;
    private final Path home;
    private final int rest;
    private final int taskManagers;
    private int runs;

    private FlinkSession(Daemons daemons, Path home, int rest, int taskManagers) {
        this.daemons = daemons;
        this.home = home;
        this.rest = rest;
        this.taskManagers = taskManagers;
    }

    /**
     * Lays out FLINK_HOME under {@code home} with {@code saba} (the README's config.yaml entries) and the cluster's
     * own settings, starts a JobManager and {@code taskManagers} TaskManagers of two slots each, and waits until all
     * have registered.
     */
    static FlinkSession start(Daemons daemons, Path home, int taskManagers, Map<String, String> settings)
            throws IOException, InterruptedException {
        FlinkSession s = new FlinkSession(daemons, home, Ports.free(), taskManagers);
        s.layOut(settings);
        s.daemon("jobmanager", "GET_JM_RESOURCE_PARAMS",
                "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", "--executionMode", "cluster");
        for (int i = 0; i < taskManagers; i++) {
            s.daemon("taskmanager-" + i, "GET_TM_RESOURCE_PARAMS",
                    "org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
        }
        s.awaitOverview(taskManagers + " TaskManagers at the JobManager",
                o -> o.path("taskmanagers").asInt() >= taskManagers);
        return s;
    }

    /**
     * Waits until every TaskManager's slots are known to the ResourceManager and no job holds one. A job submitted
     * while the previous one's slots are still being released, or before a TaskManager that has registered has also
     * reported its slots (a second call, so the overview can count it with none), could get both its slots on one
     * TaskManager (the spreading only chooses among the free slots it knows), and then none of its data would cross
     * the sockets the captures watch.
     */
    void awaitAllSlotsFree() {
        int slots = taskManagers * SLOTS_PER_TASK_MANAGER;
        awaitOverview("all " + slots + " slots known and free", o -> o.path("slots-total").asInt() == slots
                && o.path("slots-available").asInt() == slots);
    }

    /** Per vertex of the job (by name), the TaskManager of each of its subtasks, from the REST API. */
    Map<String, List<String>> placement(String jobId) throws IOException {
        String job = "http://127.0.0.1:" + rest + "/jobs/" + jobId;
        Map<String, List<String>> placement = new LinkedHashMap<>();
        for (JsonNode vertex : JSON.readTree(URI.create(job).toURL()).path("vertices")) {
            JsonNode details = JSON.readTree(URI.create(job + "/vertices/" + vertex.path("id").asText()).toURL());
            List<String> taskManagers = new ArrayList<>();
            details.path("subtasks").forEach(t -> taskManagers.add(t.path("taskmanager-id").asText()));
            placement.put(vertex.path("name").asText(), taskManagers);
        }
        return placement;
    }

    private void awaitOverview(String what, Predicate<JsonNode> done) {
        await(what).atMost(Duration.ofMinutes(5)).until(() -> {
            try {
                return done.test(JSON.readTree(URI.create("http://127.0.0.1:" + rest + "/overview").toURL()));
            } catch (IOException notUp) {
                return false;
            }
        });
    }

    private void layOut(Map<String, String> settings) throws IOException {
        Path lib = Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("tmp"));
        try (Stream<Path> jars = Files.list(Path.of(StandaloneController.required("flink.lib")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar);
            }
        }
        Path plugin = Path.of(StandaloneController.required("saba.plugin.jar"));
        Files.copy(plugin, lib.resolve(plugin.getFileName()));
        Map<String, String> yaml = new LinkedHashMap<>();
        yaml.put("jobmanager.rpc.address", "127.0.0.1");
        yaml.put("jobmanager.rpc.port", Integer.toString(Ports.free()));
        yaml.put("jobmanager.bind-host", "127.0.0.1");
        yaml.put("jobmanager.memory.process.size", "768m");
        yaml.put("taskmanager.bind-host", "127.0.0.1");
        yaml.put("taskmanager.host", "127.0.0.1");
        yaml.put("taskmanager.memory.process.size", "1024m");
        yaml.put("taskmanager.memory.managed.size", "64m");
        // two slots each: two concurrent jobs of parallelism 2, each spread over both TaskManagers by slot count
        yaml.put("taskmanager.numberOfTaskSlots", Integer.toString(SLOTS_PER_TASK_MANAGER));
        yaml.put("parallelism.default", "2");
        yaml.put("taskmanager.load-balance.mode", "SLOTS");
        yaml.put("rest.address", "127.0.0.1");
        yaml.put("rest.bind-address", "127.0.0.1");
        yaml.put("rest.port", Integer.toString(rest));
        yaml.put("io.tmp.dirs", home.resolve("tmp").toString());
        yaml.put("env.java.opts.all", JAVA_OPTS);
        yaml.putAll(settings);
        StringBuilder b = new StringBuilder();
        yaml.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        Files.writeString(Files.createDirectories(conf()).resolve("config.yaml"), b);
        // Flink's conf/log4j.properties in short: INFO to the process's output, which Daemons puts in its log
        Files.writeString(conf().resolve("log4j.properties"), String.join("\n", "rootLogger.level = INFO",
                "rootLogger.appenderRef.out.ref = Out", "appender.out.name = Out", "appender.out.type = Console",
                "appender.out.layout.type = PatternLayout", "appender.out.layout.pattern = %d %-5p %c - %m%n", ""));
    }

    /** {@code flink run OPTIONS -c GroupCountJob JOB.jar ARGS}, in a JVM of its own as {@code bin/flink} starts it. */
    Process run(String name, List<String> options, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(split(JAVA_OPTS));
        cmd.addAll(List.of(log4j(), "-classpath", classPath(), "org.apache.flink.client.cli.CliFrontend", "run"));
        cmd.addAll(options);
        cmd.addAll(List.of("-c", GroupCountJob.class.getName(), StandaloneController.required("saba.job.jar")));
        cmd.addAll(args);
        return daemons.start("run-" + (++runs) + "-" + name, cmd, Map.of("FLINK_CONF_DIR", conf().toString()), home);
    }

    /** The same job without a cluster and without Saba: {@code java -cp lib/*:JOB.jar}, Flink's local execution. */
    Process runLocally(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(split(JAVA_OPTS));
        cmd.addAll(List.of(log4j(), "-classpath", classPath() + ":" + StandaloneController.required("saba.job.jar"),
                GroupCountJob.class.getName()));
        cmd.addAll(args);
        return daemons.start("local", cmd, Map.of(), home);
    }

    private void daemon(String name, String resources, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> params = bashJavaUtils(resources);
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(split(params.get(0)));
        cmd.addAll(split(JAVA_OPTS));
        cmd.addAll(List.of(log4j(), "-classpath", classPath(), mainClass, "--configDir", conf().toString()));
        cmd.addAll(Arrays.asList(args));
        cmd.addAll(split(params.get(1)));
        daemons.start(name, cmd, Map.of("FLINK_CONF_DIR", conf().toString()), home);
    }

    /** The JVM flags and the dynamic settings, the last two result lines of BashJavaUtils. */
    private List<String> bashJavaUtils(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(java(), "-classpath", classPath(), "org.apache.flink.runtime.util.bash.BashJavaUtils",
                command, "--configDir", conf().toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IOException("BashJavaUtils " + command + " failed:\n" + out);
        }
        List<String> results = out.lines().filter(l -> l.startsWith(RESULT))
                .map(l -> l.substring(RESULT.length())).toList();
        if (results.size() < 2) {
            throw new IOException("BashJavaUtils " + command + " printed no parameters:\n" + out);
        }
        return results.subList(results.size() - 2, results.size());
    }

    private Path conf() {
        return home.resolve("conf");
    }

    private String classPath() {
        return home.resolve("lib") + "/*";
    }

    private String log4j() {
        return "-Dlog4j.configurationFile=file:" + conf().resolve("log4j.properties");
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> split(String s) {
        return Arrays.stream(s.trim().split("\\s+")).filter(x -> !x.isEmpty()).toList();
    }
}
