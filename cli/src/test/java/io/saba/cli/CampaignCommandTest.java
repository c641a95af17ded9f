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
}
