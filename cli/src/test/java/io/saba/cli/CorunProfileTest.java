package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingMethod;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code saba profile --method corun} end to end (root; CI runs it): wordcount profiled beside sort on a 3-host
 * testbed at tiny scale, 25 % and 100 %, one repetition: real Spark standalone, a dry-run controller on h1 handing
 * out the two levels, weights on every host egress and switch port, the competitor restarted until the profiled run
 * ends. A run at 25 % only counts if both applications sent through their own queues, so a completed run there is
 * also the proof that the weights acted on the right traffic.
 */
class CorunProfileTest {
    private static final Path SPARK_HOME = Path.of("..", "workloads", "target", "spark-home");
    private static final String NAME = "cprof";
    private static final String SUBNET = "10.88.0";

    /** Kept after the run (Spark's, the controller's and every run's logs), cleared before it. */
    private final Path dir = Path.of("target", "corun-profile-test");

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES) // a guard against a hang: about 2 minutes on a quiet machine
    void wordcountBesideSortGivesACorunEntryWithSamplesAtBothLevelsAndATrafficRecord() throws Exception {
        String why = TestbedSparkCampaignTest.missing();
        assumeTrue(why == null, why);
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = SabaCli.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        // the profile's progress lines go to standard output: keep a copy
        java.io.PrintStream stdout = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                printed.write(b);
                stdout.write(b);
            }
        }, true));
        Path table = dir.resolve("table.json");
        Path profile = dir.resolve("profile");
        assertEquals(0, cl.execute("testbed", "up", "--name", NAME, "--hosts", "3", "--subnet", SUBNET,
                "--link-rate", "50mbit"), err.toString());
        try {
            int code = cl.execute("profile", "--testbed", NAME, "--workload", "wordcount", "--method", "corun",
                    "--competitor", "sort", "--scale", "tiny", "--levels", "25,100", "--repeats", "1",
                    "--spark-home", SPARK_HOME.toString(), "--out", table.toString(), "--dir", profile.toString());
            System.out.println(out);
            assertEquals(0, code, err.toString());
            // before the testbed goes: the controller, the competitor and Spark have stopped with the profile
            assertTrue(TestbedSparkCampaignTest.run("ps", "-eo", "args").lines()
                    .noneMatch(l -> l.contains(SUBNET + ".")), "no process with the testbed's addresses left");
        } finally {
            System.setOut(stdout);
            cl.execute("testbed", "down", "--name", NAME);
        }
        TableEntry e = SensitivityTableCodec.parse(Files.readString(table), "table.json").find("wordcount")
                .orElseThrow();
        assertEquals(ProfilingMethod.corun("sort", 1.0), e.context().method());
        assertTrue(e.context().settings().startsWith("corun beside sort (scale tiny x1"), e.context().settings());
        assertEquals(List.of(25.0, 100.0), e.samples().stream().map(Sample::bandwidthPercent).sorted().toList());
        assertNotNull(e.traffic(), "the full-rate run's traffic record");
        assertTrue(e.traffic().utilisation().length > 0);
        assertEquals(null, e.corunProfile(), "a corun entry gives the co-run predictor no profile");

        Path runs = profile.resolve("wordcount/corun-sort");
        List<String> journal = Files.readAllLines(runs.resolve("runs.csv"));
        assertEquals(3, journal.size(), journal.toString());
        assertTrue(journal.stream().skip(1).allMatch(l -> l.contains(",COMPLETED,")), journal.toString());
        try (Stream<Path> logs = Files.list(runs)) {
            assertTrue(logs.anyMatch(p -> p.getFileName().toString().startsWith("wordcount-b25-r0-sort-")),
                    "the competitor ran beside the 25 % run");
        }
        assertTrue(printed.toString().contains("wordcount at  25.0 % rep 0: "), printed.toString());
    }
}
