package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        var cl = SabaCli.newCommandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void fig8PrintsThePaperBesideOursAndWritesItsFiles() {
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--out", dir.toString()));
        assertTrue(out.toString().contains("Fig. 8a") && out.toString().contains("1.88"), out.toString());
        for (String f : new String[] {"jobs.csv", "fig8a.png", "fig8b.png", "summary.txt"}) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
    }

    @Test
    void anUnknownFigureIsTheUsersToFix() {
        assertEquals(2, run("campaign", "--figure", "fig99", "--out", dir.toString()));
        assertTrue(err.toString().contains("fig99"), err.toString());
    }

    @Test
    void fig8RunsItsSetupsOnASparkMaster() {
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--master", "local[2]", "--out",
                dir.toString()), err.toString());
        assertTrue(out.toString().contains("on Spark local[2]"), out.toString());
        assertTrue(out.toString().contains("Fig. 8a"), out.toString());
    }

    @Test
    void sparkOptionsOutsideFig8AreRefusedByName() {
        assertEquals(2, run("campaign", "--figure", "fig9", "--master", "local[2]", "--out", dir.toString()));
        assertTrue(err.toString().contains("--master"), err.toString());
        assertEquals(2, run("campaign", "--conf", "spark.executor.memory=1g", "--out", dir.toString()));
        assertTrue(err.toString().contains("--conf needs --master"), err.toString());
    }

    @Test
    void badTestbedCampaignInputIsOneLineAndExit2BeforeAnythingStarts() throws Exception {
        Path out = dir.resolve("never");
        assertEquals(2, run("campaign", "--testbed", "--hosts", "2", "--out", out.toString()));
        assertTrue(err.toString().contains("--hosts must be 3..10") && err.toString().contains("got 2"),
                err.toString());
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"format\": ");
        assertEquals(2, run("campaign", "--testbed", "--table", broken.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains(broken + ": not valid JSON"), err.toString());
        Path unknown = Files.writeString(dir.resolve("unknown.json"), "{\"format\":\"saba-sensitivity-table\","
                + "\"version\":1,\"workloads\":{\"kmeans\":{\"degree\":1,\"coefficients\":[2,-1]}}}");
        assertEquals(2, run("campaign", "--testbed", "--table", unknown.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains("unknown workload 'kmeans'"), err.toString());
        assertEquals(2, run("campaign", "--testbed", "--allocation", "fair", "--out", out.toString()));
        assertTrue(err.toString().contains("--allocation must be corun or eq2"), err.toString());
        assertEquals(2, run("campaign", "--testbed", "--figure", "fig9", "--out", out.toString()));
        assertTrue(err.toString().contains("--testbed does not take --figure"), err.toString());
        assertEquals(2, run("campaign", "--hosts", "4", "--out", out.toString()));
        assertTrue(err.toString().contains("--hosts: only with --testbed"), err.toString());
        assertEquals(6, err.toString().lines().count(), "one line each: " + err);
        assertTrue(!Files.exists(out), "nothing written");
    }
}
