package io.saba.cli.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.cli.SabaCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TestbedCommandTest {
    @Test
    void testbedIsRegisteredWithItsSubcommands() {
        CommandLine cli = SabaCli.newCommandLine();
        CommandLine testbed = cli.getSubcommands().get("testbed");
        assertTrue(testbed != null, "saba testbed is registered");
        assertEquals(java.util.Set.of("up", "status", "down", "exec", "apply", "proof", "spark", "enforcement"),
                testbed.getSubcommands().keySet());
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out));
        assertEquals(0, cli.execute("testbed", "up", "--help"));
        assertTrue(out.toString().contains("--link-rate"), out.toString());
    }

    @Test
    void badInputIsOneLineAndExitStatusTwo() {
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream before = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        int status;
        try {
            status = SabaCli.newCommandLine().execute("testbed", "enforcement", "--hosts", "1");
        } finally {
            System.setErr(before);
        }
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
        assertEquals(2, status, said);
        assertEquals(1, said.lines().count(), said);
        assertTrue(said.contains("--hosts"), said);
    }

    @Test
    void execTakesTheCommandAfterDoubleDash() {
        CommandLine cli = SabaCli.newCommandLine();
        CommandLine.ParseResult r = cli.parseArgs("testbed", "exec", "--name", "x", "h2", "--", "iperf3", "-c", "10.77.0.1");
        TestbedCommand.Exec exec = (TestbedCommand.Exec) r.subcommand().subcommand().commandSpec().userObject();
        assertEquals("h2", exec.node);
        assertEquals(java.util.List.of("iperf3", "-c", "10.77.0.1"), exec.command);
    }

    @Test
    void ratesUseTcsDecimalUnits() {
        assertEquals(100_000_000L, RateConverter.parse("100mbit"));
        assertEquals(1_000_000_000L, RateConverter.parse("1gbit"));
        assertEquals(2_500_000L, RateConverter.parse("2.5Mbit"));
        assertEquals(64_000L, RateConverter.parse("64000"));
        assertThrows(CommandLine.TypeConversionException.class, () -> RateConverter.parse("fast"));
        assertThrows(CommandLine.TypeConversionException.class, () -> RateConverter.parse("-1mbit"));
    }
}
