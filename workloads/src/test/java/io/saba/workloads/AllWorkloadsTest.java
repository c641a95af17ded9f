package io.saba.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * All ten workloads at the tiny scale in one Spark application on real executor JVMs
 * ({@code local-cluster[2,1,1024]}, launched from target/spark-home): each completes with a plausible result, and
 * every workload that shuffles reads shuffle bytes from the other executor over a socket.
 */
@Timeout(900)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AllWorkloadsTest {
    static final String MASTER = "local-cluster[2,1,1024]";
    private static SparkSession spark;
    private static final AtomicLong REMOTE_SHUFFLE_BYTES = new AtomicLong();

    @BeforeAll
    static void start() {
        Map<String, String> conf = new LinkedHashMap<>();
        // executors find this module's classes here (target/spark-home/jars holds only the dependencies before
        // the package phase)
        conf.put("spark.executor.extraClassPath", Path.of("target/classes").toAbsolutePath().toString());
        conf.put("spark.executor.memory", "512m");
        conf.put("spark.driver.host", "127.0.0.1");
        conf.put("spark.driver.bindAddress", "127.0.0.1");
        spark = WorkloadMain.session(MASTER, null, "all-ten", 4, conf);
        spark.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd end) {
                if (end.taskMetrics() != null) {
                    REMOTE_SHUFFLE_BYTES.addAndGet(end.taskMetrics().shuffleReadMetrics().remoteBytesRead());
                }
            }
        });
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @Test
    @Order(1)
    void allTenRunAtTinyScaleAndShuffleOverTheNetwork() throws Exception {
        Size tiny = new Size(Scale.TINY, 1, 4);
        Map<String, String> summaries = new LinkedHashMap<>();
        Map<String, Long> remote = new LinkedHashMap<>();
        for (String name : Workloads.names()) {
            long before = REMOTE_SHUFFLE_BYTES.get();
            WorkloadRunner.Result r = WorkloadRunner.run(spark, name, tiny);
            // listener events arrive asynchronously; give the bus a moment to drain
            spark.sparkContext().listenerBus().waitUntilEmpty(10_000);
            remote.put(name, REMOTE_SHUFFLE_BYTES.get() - before);
            summaries.put(name, r.summary());
            System.out.printf("%-14s %8.3f s  input %,12d B  remote shuffle %,10d B  %s%n", name, r.seconds(),
                    r.inputBytes(), remote.get(name), r.summary());
            assertTrue(r.seconds() > 0 && r.inputBytes() > 0, name);
        }
        assertEquals(List.of("lr", "rf", "gbt", "svm", "pagerank", "nweight", "sql", "wordcount", "sort",
                "nutchindexing"), List.copyOf(summaries.keySet()));
        for (String ml : List.of("lr", "rf", "gbt", "svm")) {
            double acc = Double.parseDouble(summaries.get(ml).replace("accuracy=", ""));
            assertTrue(acc > 0.6, ml + " learns the hidden hyperplane: " + summaries.get(ml));
        }
        assertEquals("records=20000 sorted=true", summaries.get("sort"));
        assertEquals("distinct", summaries.get("wordcount").split("=")[0]);
        assertTrue(summaries.get("wordcount").endsWith(" words=28000"), summaries.get("wordcount"));
        assertTrue(summaries.get("pagerank").startsWith("vertices="), summaries.get("pagerank"));
        assertTrue(summaries.get("nutchindexing").matches("terms=\\d+ postings=\\d+"));
        assertTrue(!summaries.get("sql").equals("top=none"), "the join finds 1999 visits");
        assertTrue(Long.parseLong(summaries.get("nweight").replace("pairs=", "")) > 0, summaries.get("nweight"));
        // every workload shuffles between the two executors (map-side-combined WordCount least of all)
        remote.forEach((name, bytes) -> assertTrue(bytes > 0, name + " read no shuffle bytes over the network"));
    }

    @Test
    @Order(2)
    void generationIsDeterministic() {
        Size tiny = new Size(Scale.TINY, 1, 4);
        assertEquals(WorkloadRunner.run(spark, "nutchindexing", tiny).summary(),
                WorkloadRunner.run(spark, "nutchindexing", new Size(Scale.TINY, 1, 3)).summary(),
                "the data must not depend on the partition count");
    }

    @Test
    @Order(3)
    void theDriverProgramPrintsTheTimeAndAppendsAHibenchReportLine(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report/hibench.report");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        InputStream oldIn = System.in;
        int code;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        // the start line a launcher sends once every co-running driver is prepared (--wait-for-start)
        System.setIn(new ByteArrayInputStream("go\n".getBytes(StandardCharsets.UTF_8)));
        try {
            // the active session is reused (same master); the command stops it at the end
            code = new CommandLine(new WorkloadMain()).execute("wc", "--scale", "tiny", "--master", MASTER,
                    "--report", report.toString());
            code += new CommandLine(new WorkloadMain()).execute("sort", "--scale", "tiny", "--factor", "0.5",
                    "--master", "local[2]", "--report", report.toString(), "--wait-for-start");
        } finally {
            System.setOut(old);
            System.setIn(oldIn);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        System.out.print(out);
        assertEquals(0, code, out);
        assertTrue(out.matches("(?s).*SABA_RESULT workload=wordcount seconds=\\d+\\.\\d{3} started_ms=\\d+ "
                + "input_bytes=\\d+.*"), out);
        assertTrue(out.indexOf("SABA_PREPARED workload=sort") >= 0
                && out.indexOf("SABA_PREPARED workload=sort") < out.indexOf("SABA_RESULT workload=sort"), out);
        assertTrue(!out.contains("SABA_PREPARED workload=wordcount"), "no gate without --wait-for-start");
        assertTrue(out.contains("summary=records=10000,sorted=true"), out);
        List<String> lines = Files.readAllLines(report);
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("Type"), lines.get(0));
        assertTrue(lines.get(1).matches("SabaSparkWordcount\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+\\d+\\s+"
                + "\\d+\\.\\d{3}\\s+\\d+\\s+\\d+"), lines.get(1));
        assertTrue(lines.get(2).startsWith("SabaSparkTerasort "), lines.get(2));
        assertEquals("1000000", lines.get(2).trim().split("\\s+")[3], "10,000 records of 100 bytes");
    }
}
