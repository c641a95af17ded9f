package io.saba.cli.rperf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.cli.SabaCli;
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
    void rdmaTransportSkipsAndSaysWhy() {
        // no RDMA device in CI; were one present the probe still reports that no verbs binding is bundled
        String out = run("rperf", "client", "-H", "127.0.0.1", "--transport", "rdma");
        assertTrue(out.contains("SKIPPED rdma"), out);
    }
}
