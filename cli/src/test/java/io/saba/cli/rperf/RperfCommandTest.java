package io.saba.cli.rperf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.cli.SabaCli;
import io.saba.rperf.tool.RdmaProbe;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The {@code saba rperf} commands wired into the real command line. */
class RperfCommandTest {
    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, SabaCli.newCommandLine().execute(args));
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void modelPrintsPaperBesideOurs() {
        String out = run("rperf", "model", "--experiment", "dedicated-sl", "--duration-us", "300");
        assertTrue(out.contains("dedicated SL1->VL1 high"), out);
        assertTrue(out.contains("paper med"), out);
    }

    @Test
    void anRdmaRunThatDidNotHappenFailsAndSaysWhy() {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = SabaCli.newCommandLine().execute("rperf", "client", "-H", "127.0.0.1", "--transport", "rdma");
        } finally {
            System.setErr(old);
        }
        String why = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, code, why);
        // no device here (CI), or a device but no RDMA generators: either way the reason is the probe's
        assertTrue(why.contains("rperf: rdma run not done: " + new RdmaProbe().cannotRun().orElseThrow()), why);
    }
}
