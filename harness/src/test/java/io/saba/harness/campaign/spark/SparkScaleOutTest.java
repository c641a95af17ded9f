package io.saba.harness.campaign.spark;

import io.saba.core.model.ModelChoice;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.harness.campaign.JobOutcome;
import io.saba.harness.campaign.TestbedCampaign;
import io.saba.harness.campaign.TestbedCampaignConfig;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The campaign's setups as tasks on real executor JVMs ({@code local-cluster[2,1,1024]}): the rows equal a local
 * run's for the same seed, and a partly done folder is resumed by the cluster like by a local run.
 */
class SparkScaleOutTest {
    @TempDir
    Path tmp;

    @Test
    void clusterRunEqualsLocalRunAndResumes() throws IOException {
        TestbedCampaign.Result local = TestbedCampaign.run(config(4, tmp.resolve("local")), null);

        // an interrupted run's folder: setups 0 and 1 done, 2 and 3 to do
        Path cluster = tmp.resolve("cluster");
        Files.createDirectories(cluster);
        List<String> firstTwo = new ArrayList<>();
        for (String line : Files.readAllLines(tmp.resolve("local").resolve("jobs.csv"))) {
            if (!line.startsWith("2,") && !line.startsWith("3,")) {
                firstTwo.add(line);
            }
        }
        Files.write(cluster.resolve("jobs.csv"), firstTwo);
        Files.writeString(cluster.resolve("campaign.fingerprint"), config(4, cluster).fingerprint());

        TestbedCampaign.Result remote;
        try (SparkSetupRunner spark = SparkSetupRunner.start("local-cluster[2,1,1024]", clusterConf())) {
            remote = TestbedCampaign.run(config(4, cluster), null, spark);
        }
        assertEquals(2, remote.ranNow(), "only the missing setups run on the cluster");
        assertEquals(2, remote.resumed());
        List<JobOutcome> rows = remote.rows();
        assertEquals(4 * 16, rows.size());
        assertEquals(local.rows(), rows, "executors compute exactly the local rows");
    }

    private static TestbedCampaignConfig config(int setups, Path out) {
        return new TestbedCampaignConfig(setups, 21, ModelChoice.AUTO, 8, 1.0, 2, out);
    }

    /** Real executors start from $SPARK_HOME/jars (surefire points it at target/spark-home): link our jars there. */
    private static Map<String, String> clusterConf() throws IOException {
        Path jars = Path.of(System.getenv("SPARK_HOME"), "jars");
        Files.createDirectories(jars);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (String e : cp.split(File.pathSeparator)) {
            Path p = Path.of(e);
            Path link = jars.resolve(p.getFileName());
            if (e.endsWith(".jar") && Files.isRegularFile(p) && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                Files.createSymbolicLink(link, p.toAbsolutePath());
            }
        }
        return Map.of("spark.driver.host", "127.0.0.1", "spark.driver.bindAddress", "127.0.0.1",
                "spark.executor.memory", "512m");
    }
}
