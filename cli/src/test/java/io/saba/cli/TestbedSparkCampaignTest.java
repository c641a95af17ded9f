package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.harness.realspark.JobRow;
import io.saba.harness.realspark.JobsCsv;
import io.saba.process.CommandResult;
import io.saba.process.Host;
import io.saba.process.ProcessRunner;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code saba campaign --testbed} end to end (root; CI runs it): one setup of three tiny jobs on a 3-host testbed,
 * real Spark standalone, real drivers and executors, under the baseline and under Saba with a standalone controller
 * programming the testbed's qdiscs. Seed 7 draws nutchindexing x0.5 on h2, wordcount x0.5 on h3 and nutchindexing x2
 * on h2 and h3 from the measured table's four workloads (two applications of one workload: registrations are
 * counted per workload). Both cases take 1.5 minutes on 2 cores at nice 19 when the machine is otherwise quiet, about
 * 11 minutes when other experiments keep both cores busy.
 */
class TestbedSparkCampaignTest {
    private static final Path SPARK_HOME = Path.of("..", "workloads", "target", "spark-home");
    private static final String NAME = "cmpe2e";
    private static final String SUBNET = "10.95.0";

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 25, unit = TimeUnit.MINUTES) // a guard against a hang: 1.5 minutes idle, 9 with the machine busy
    void oneSetupRunsUnderBothTreatmentsOnItsDrawnHostsAndTheControllerSeesEveryJob() throws Exception {
        String why = missing();
        assumeTrue(why == null, why);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = SabaCli.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("campaign", "--testbed", "--setups", "1", "--seed", "7", "--hosts", "3", "--scale",
                "tiny", "--link-rate", "100mbit", "--name", NAME, "--subnet", SUBNET, "--table",
                Path.of("..", "examples", "measured-testbed-table.json").toString(), "--spark-home",
                SPARK_HOME.toString(), "--out", dir.toString());
        System.out.println(out);
        assertEquals(0, code, err.toString());

        List<JobRow> rows = new JobsCsv(dir.resolve("jobs.csv")).read().get(0);
        assertEquals(List.of("nutchindexing", "wordcount", "nutchindexing"),
                rows.stream().map(r -> r.job().workload()).toList());
        for (JobRow r : rows) {
            assertTrue(r.complete() && r.baseline().seconds() > 0 && r.saba().seconds() > 0, "both times: " + r);
            // no note: every executor ran on its drawn host in both runs, and the controller listed the job
            assertEquals("", r.note(), r.job().id());
        }
        assertEquals(List.of(2), rows.get(0).job().hosts());
        assertEquals(List.of(2, 3), rows.get(2).job().hosts());

        JsonNode status = new ObjectMapper().readTree(dir.resolve("logs/s000/saba-status.json").toFile());
        List<String> registered = new ArrayList<>();
        for (JsonNode a : status.path("applications")) {
            assertTrue(a.path("workload_known").asBoolean(), a.toString());
            assertTrue(a.path("level").asInt() >= 1, "a Saba level: " + a);
            registered.add(a.path("workload").asText());
        }
        assertEquals(List.of("nutchindexing", "nutchindexing", "wordcount"), registered.stream().sorted().toList());
        assertEquals("linux", status.path("backend").asText());
        // the controller's Linux backend logs every port it programs; a snapshot of its status during the run can
        // miss them (tiny jobs end within a second of each other and deregister)
        String controllerLog = Files.readString(dir.resolve("logs/s000/controller.log"));
        assertTrue(controllerLog.contains("LinuxTcBackend - port "), "the controller programmed the testbed's ports: "
                + controllerLog);

        String text = out.toString();
        assertTrue(text.contains("setup 0 baseline: start-up") && text.contains("setup 0 saba: start-up"), text);
        assertTrue(text.contains("setup 0 done, ") && text.contains("setups: 1/1 (100 %)") && text.contains("Fig. 8a"),
                text);
        assertTrue(Files.readString(dir.resolve("summary.txt")).contains("Fig. 8b"));
        assertTrue(Files.size(dir.resolve("setups-cdf.png")) > 0);
        assertEquals(2, Files.readAllLines(dir.resolve("setups.csv")).size());

        // nothing left: the testbed's namespaces and every process started on it are gone
        assertTrue(run("ip", "netns", "list").lines().noneMatch(l -> l.startsWith("saba-" + NAME + "-")));
        assertTrue(run("ps", "-eo", "args").lines().noneMatch(l -> l.contains(SUBNET + ".")),
                "no process with the testbed's addresses left");
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void controlCTakesEverythingDownAndRecordsNothing() throws Exception {
        String why = missing();
        assumeTrue(why == null, why);
        String name = "cmpint";
        String subnet = "10.96.0";
        Path log = dir.resolve("campaign.log");
        Path out = dir.resolve("out");
        // env resets SIGINT to its default: a build started in the background (nohup, &) hands its children SIGINT
        // ignored, and a JVM that inherits it ignored never sees ^C, as a terminal's job would
        List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT",
                ProcessHandle.current().info().command().orElseThrow(), "-cp",
                System.getProperty("java.class.path"), SabaCli.class.getName(), "campaign", "--testbed", "--setups",
                "1", "--seed", "7", "--hosts", "3", "--scale", "tiny", "--name", name, "--subnet", subnet,
                "--table", Path.of("..", "examples", "measured-testbed-table.json").toString(), "--spark-home",
                SPARK_HOME.toString(), "--out", out.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            while (!Files.readString(log).contains("drivers launched on h1")) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "the campaign never launched its drivers: "
                        + Files.readString(log));
                TimeUnit.MILLISECONDS.sleep(250);
            }
            Path master = out.resolve("logs/spark/master.log");
            while (!Files.readString(master).contains("Launching executor")) {
                assertTrue(p.isAlive() && System.nanoTime() < deadline, "no executor launched: " + Files.readString(log));
                TimeUnit.MILLISECONDS.sleep(250);
            }
            TimeUnit.SECONDS.sleep(3); // master, workers, drivers and executors all running now
            assertTrue(run("ps", "-eo", "args").lines().filter(l -> l.contains(subnet + ".")).count() >= 6,
                    "master, 2 workers, 3 drivers and executors run on the testbed");
            run("kill", "-INT", Long.toString(p.pid()));
            assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the campaign exits on ^C");
        } finally {
            p.destroyForcibly();
        }
        System.out.println(Files.readString(log));
        assertEquals(130, p.exitValue(), "the JVM's status after SIGINT");
        assertTrue(run("ip", "netns", "list").lines().noneMatch(l -> l.startsWith("saba-" + name + "-")),
                "the testbed is gone");
        assertTrue(run("ps", "-eo", "args").lines().noneMatch(l -> l.contains(subnet + ".")),
                "no driver, executor, worker, master or controller left");
        assertTrue(new JobsCsv(out.resolve("jobs.csv")).read().isEmpty(), "an interrupted setup writes no row");
    }

    private static final AtomicBoolean SAID = new AtomicBoolean();

    /**
     * Why this machine cannot run the campaign, or null. The first time it cannot, that is said once on the forked
     * JVM's own stderr, which the build prints: the build sends tests' System.out to files, where a skip goes unread.
     */
    static String missing() throws Exception {
        String why = whyNot();
        if (why != null && !SAID.getAndSet(true)) {
            PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
            err.println("testbed campaign tests (TestbedSparkCampaignTest, CorunProfileTest) skipped: " + why);
        }
        return why;
    }

    private static String whyNot() throws Exception {
        if (!Host.root()) {
            return "needs root (network namespaces, tc)";
        }
        if (!Files.isRegularFile(SPARK_HOME.resolve("jars").resolve("saba-workloads-0.1.0-SNAPSHOT.jar"))) {
            return "no Spark home with the workloads at " + SPARK_HOME + " (mvn -pl cli -am verify builds it)";
        }
        try (var files = Files.list(Path.of("..", "spark-shuffle-saba", "spark-3.5", "target"))) {
            if (files.noneMatch(f -> f.getFileName().toString().endsWith("-shaded.jar"))) {
                return "no Saba shuffle jar in spark-shuffle-saba/spark-3.5/target (mvn -pl cli -am verify builds it)";
            }
        } catch (java.io.IOException e) {
            return "no spark-shuffle-saba/spark-3.5/target (mvn -pl cli -am verify builds it)";
        }
        if (!List.of("curl", "tc", "ip").stream().allMatch(Host::onPath)) {
            return "needs curl, tc and ip (.ci/run installs them)";
        }
        return null;
    }

    static String run(String... cmd) {
        CommandResult r = new ProcessRunner(Duration.ofMinutes(1)).run(List.of(cmd));
        return r.stdout() + r.stderr();
    }
}
