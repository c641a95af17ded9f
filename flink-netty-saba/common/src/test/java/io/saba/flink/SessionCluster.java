package io.saba.flink;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Flink standalone session cluster started the way Flink's scripts start one: a JobManager
 * ({@code StandaloneSessionClusterEntrypoint}) and TaskManagers ({@code TaskManagerRunner}) as separate JVMs, each
 * given {@code --configDir} with a {@code config.yaml}, the class path {@code lib/*}, the JVM flags and dynamic
 * settings that {@code BashJavaUtils} derives from the configuration (as {@code bin/jobmanager.sh} and
 * {@code bin/taskmanager.sh} do), {@code env.java.opts.all} and a log4j 2 configuration. Jobs go through the
 * {@code flink run} entry point ({@code CliFrontend}).
 *
 * <p>{@code lib/} holds what Maven assembled in {@code target/flink-dist/lib} (flink-dist is not on Maven Central)
 * and Saba's shaded jar, exactly as a user installs it.
 */
final class SessionCluster implements AutoCloseable {
    /** What Flink 1.20's default config.yaml puts in {@code env.java.opts.all} for Java 17. */
    static final String JAVA_OPTS = String.join(" ",
            "--add-exports=java.base/sun.net.util=ALL-UNNAMED", "--add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED");
    private static final String BASH_JAVA_UTILS = "org.apache.flink.runtime.util.bash.BashJavaUtils";
    private static final String RESULT_PREFIX = "BASH_JAVA_UTILS_EXEC_RESULT:";
    private static final Pattern JOB_ID = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");

    private final Path home;
    private final int restPort;
    private final List<Process> daemons = new ArrayList<>();
    private final List<Process> clients = new ArrayList<>();
    private Path jobJar;

    private SessionCluster(Path home, int restPort) {
        this.home = home;
        this.restPort = restPort;
    }

    /**
     * Lays out FLINK_HOME under {@code home}, starts a JobManager and {@code taskManagers} TaskManagers, and waits
     * until they have all registered.
     *
     * @param settings extra config.yaml entries (the README's Saba entries, the data port range)
     */
    static SessionCluster start(Path home, int taskManagers, Map<String, String> settings) throws Exception {
        SessionCluster c = new SessionCluster(home, freePort());
        try {
            c.layOut(settings);
            c.daemons.add(c.daemon("jobmanager", "GET_JM_RESOURCE_PARAMS",
                    "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", "--executionMode",
                    "cluster"));
            for (int i = 0; i < taskManagers; i++) {
                c.daemons.add(c.daemon("taskmanager-" + i, "GET_TM_RESOURCE_PARAMS",
                        "org.apache.flink.runtime.taskexecutor.TaskManagerRunner"));
            }
            c.awaitTaskManagers(taskManagers);
            return c;
        } catch (Exception | AssertionError e) {
            String logs = c.logTails();
            c.close();
            throw new IllegalStateException("the session cluster did not start\n" + logs, e);
        }
    }

    private void layOut(Map<String, String> settings) throws IOException {
        Path conf = Files.createDirectories(home.resolve("conf"));
        Path lib = Files.createDirectories(home.resolve("lib"));
        Files.createDirectories(home.resolve("log"));
        Files.createDirectories(home.resolve("tmp"));
        try (Stream<Path> jars = Files.list(Path.of(System.getProperty("saba.flink.lib")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.createSymbolicLink(lib.resolve(jar.getFileName()), jar.toAbsolutePath());
            }
        }
        Path saba = Path.of(System.getProperty("saba.flink.jar"));
        Files.createSymbolicLink(lib.resolve(saba.getFileName()), saba.toAbsolutePath());

        Map<String, String> yaml = new LinkedHashMap<>();
        yaml.put("jobmanager.rpc.address", "127.0.0.1");
        yaml.put("jobmanager.rpc.port", Integer.toString(freePort()));
        yaml.put("jobmanager.bind-host", "127.0.0.1");
        yaml.put("jobmanager.memory.process.size", "768m");
        yaml.put("taskmanager.bind-host", "127.0.0.1");
        yaml.put("taskmanager.host", "127.0.0.1");
        yaml.put("taskmanager.memory.process.size", "1024m");
        yaml.put("taskmanager.memory.managed.size", "64m");
        yaml.put("taskmanager.numberOfTaskSlots", "2");
        yaml.put("parallelism.default", "2");
        yaml.put("taskmanager.load-balance.mode", "SLOTS"); // cluster.evenly-spread-out-slots before Flink 2
        yaml.put("rest.address", "127.0.0.1");
        yaml.put("rest.bind-address", "127.0.0.1");
        yaml.put("rest.port", Integer.toString(restPort));
        yaml.put("io.tmp.dirs", home.resolve("tmp").toString());
        yaml.put("env.java.opts.all", JAVA_OPTS);
        yaml.putAll(settings);
        StringBuilder b = new StringBuilder();
        yaml.forEach((k, v) -> b.append(k).append(": ").append(v).append('\n'));
        Files.writeString(conf.resolve("config.yaml"), b);
        // the gist of Flink's conf/log4j.properties: everything at INFO into the file the launcher names
        String log4j = String.join("\n", "monitorInterval = 30", "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = MainAppender", "appender.main.name = MainAppender",
                "appender.main.type = File", "appender.main.fileName = ${sys:log.file}",
                "appender.main.layout.type = PatternLayout",
                "appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n", "");
        Files.writeString(conf.resolve("log4j.properties"), log4j);
        Files.writeString(conf.resolve("log4j-cli.properties"), log4j);
    }

    /** Starts one daemon as Flink's scripts do: BashJavaUtils first, for the JVM flags and dynamic settings. */
    private Process daemon(String name, String resourceCommand, String mainClass, String... args)
            throws IOException, InterruptedException {
        List<String> params = bashJavaUtils(resourceCommand);
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(split(params.get(0)));
        cmd.addAll(split(JAVA_OPTS));
        cmd.addAll(logSettings(name));
        cmd.addAll(List.of("-classpath", classPath(), mainClass, "--configDir", conf().toString()));
        cmd.addAll(Arrays.asList(args));
        cmd.addAll(split(params.get(1)));
        return new ProcessBuilder(cmd).directory(home.toFile())
                .redirectErrorStream(true).redirectOutput(home.resolve("log/" + name + ".out").toFile()).start();
    }

    private List<String> bashJavaUtils(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(java(), "-classpath", classPath(), BASH_JAVA_UTILS, command, "--configDir",
                conf().toString()).directory(home.toFile()).redirectErrorStream(true).start();
        List<String> out = new ArrayList<>();
        List<String> results = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.add(line);
                if (line.startsWith(RESULT_PREFIX)) {
                    results.add(line.substring(RESULT_PREFIX.length()));
                }
            }
        }
        if (p.waitFor() != 0 || results.size() != 2) {
            throw new IllegalStateException("BashJavaUtils " + command + " failed: " + String.join("\n", out));
        }
        return results;
    }

    private List<String> logSettings(String name) {
        String conf = conf().toString();
        return List.of("-Dlog.file=" + home.resolve("log/flink-" + name + ".log"),
                "-Dlog4j.configuration=file:" + conf + "/log4j.properties",
                "-Dlog4j.configurationFile=file:" + conf + "/log4j.properties");
    }

    private void awaitTaskManagers(int n) throws Exception {
        awaitOverview(n + " TaskManagers registered", body -> field(body, "taskmanagers") >= n);
    }

    /**
     * Waits until no job holds a slot. A job submitted while the previous one's slots are still being released can
     * get every slot on one TaskManager (evenly spread only chooses among free slots), and then none of its data
     * crosses the network the captures watch.
     */
    void awaitAllSlotsFree() throws Exception {
        awaitOverview("every slot free", body -> field(body, "slots-available") == field(body, "slots-total"));
    }

    private static long field(String body, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\\d+)").matcher(body);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private void awaitOverview(String what, Predicate<String> done) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest overview = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + "/overview"))
                .timeout(Duration.ofSeconds(5)).build();
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        while (System.nanoTime() < end) {
            for (Process d : daemons) {
                if (!d.isAlive()) {
                    throw new IllegalStateException("a Flink daemon exited with status " + d.exitValue());
                }
            }
            try {
                if (done.test(http.send(overview, HttpResponse.BodyHandlers.ofString()).body())) {
                    return;
                }
            } catch (IOException e) {
                // the REST endpoint is not up yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the session cluster never had " + what);
    }

    /** A {@code flink run} on its way: its output is read as it comes, so the job id is known while it runs. */
    final class Run {
        private final Process process;
        private final CompletableFuture<String> jobId = new CompletableFuture<>();
        private final StringBuffer output = new StringBuffer();
        private final Thread reader;

        private Run(Process process) {
            this.process = process;
            this.reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        output.append(line).append('\n');
                        Matcher m = JOB_ID.matcher(line);
                        if (m.find()) {
                            jobId.complete(m.group(1));
                        }
                    }
                } catch (IOException e) {
                    jobId.completeExceptionally(e);
                }
                jobId.completeExceptionally(new IllegalStateException("flink run printed no job id:\n" + output));
            }, "flink-run-output");
            reader.setDaemon(true);
            reader.start();
        }

        String jobId() throws Exception {
            return jobId.get(3, TimeUnit.MINUTES);
        }

        /** Waits for {@code flink run} to end and returns the job's RESULT line; a failure throws with its output. */
        String result() throws Exception {
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("flink run did not end:\n" + output);
            }
            reader.join(TimeUnit.SECONDS.toMillis(10));
            String out = output.toString();
            if (process.exitValue() != 0) {
                throw new AssertionError("flink run failed (" + process.exitValue() + "):\n" + out);
            }
            return out.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no RESULT line:\n" + out));
        }
    }

    /**
     * {@code flink run [options] -c io.saba.flink.ShuffleJob job.jar args}, in a JVM of its own as
     * {@code bin/flink} starts it.
     *
     * @param options CLI options before the jar, e.g. {@code -Dsaba.workload=lr}
     */
    Run run(List<String> options, String... jobArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java()));
        cmd.addAll(split(JAVA_OPTS));
        cmd.add("-Dlog.file=" + home.resolve("log/flink-client-" + clients.size() + ".log"));
        cmd.add("-Dlog4j.configurationFile=file:" + conf() + "/log4j-cli.properties");
        cmd.addAll(List.of("-classpath", classPath(), "org.apache.flink.client.cli.CliFrontend", "run"));
        cmd.addAll(options);
        cmd.addAll(List.of("-c", ShuffleJob.class.getName(), jobJar().toString()));
        cmd.addAll(Arrays.asList(jobArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true);
        pb.environment().put("FLINK_CONF_DIR", conf().toString());
        Process p = pb.start();
        clients.add(p);
        return new Run(p);
    }

    /** The job's jar: {@link ShuffleJob} and its nested classes, from the test classes. */
    private synchronized Path jobJar() throws IOException {
        if (jobJar == null) {
            Path classes;
            try {
                classes = Path.of(ShuffleJob.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            } catch (java.net.URISyntaxException e) {
                throw new IOException(e);
            }
            String pkg = ShuffleJob.class.getPackageName().replace('.', '/');
            jobJar = home.resolve("shuffle-job.jar");
            try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(jobJar));
                 Stream<Path> files = Files.list(classes.resolve(pkg))) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String n = f.getFileName().toString();
                    if (n.equals("ShuffleJob.class") || n.startsWith("ShuffleJob$")) {
                        jar.putNextEntry(new JarEntry(pkg + "/" + n));
                        jar.write(Files.readAllBytes(f));
                        jar.closeEntry();
                    }
                }
            }
        }
        return jobJar;
    }

    /** The JobManager's log so far. */
    String jobManagerLog() throws IOException {
        return Files.readString(home.resolve("log/flink-jobmanager.log"));
    }

    private String logTails() {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> logs = Files.list(home.resolve("log"))) {
            for (Path f : (Iterable<Path>) logs.sorted()::iterator) {
                List<String> lines = Files.readAllLines(f);
                b.append("==> ").append(f.getFileName()).append(" <==\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> b.append(l).append('\n'));
            }
        } catch (IOException | UncheckedIOException e) {
            b.append("(logs unreadable: ").append(e).append(")\n");
        }
        return b.toString();
    }

    @Override
    public void close() {
        for (Process p : clients) {
            p.destroyForcibly();
        }
        // SIGTERM, as stop-cluster.sh sends: Flink's shutdown hooks close the shuffle master (and its client)
        for (int i = daemons.size() - 1; i >= 0; i--) {
            daemons.get(i).destroy();
        }
        for (Process p : daemons) {
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private Path conf() {
        return home.resolve("conf");
    }

    private String classPath() {
        return home.resolve("lib") + "/*";
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> split(String s) {
        return Arrays.stream(s.trim().split("\\s+")).filter(x -> !x.isEmpty()).toList();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
