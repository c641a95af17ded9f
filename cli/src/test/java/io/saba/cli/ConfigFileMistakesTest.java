package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A mistake in {@code saba controller --config FILE} or its flags: one line naming where it is, exit status 2. */
// a configuration accepted by mistake starts a controller that serves until stopped
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConfigFileMistakesTest {
    private static String refusal(Path dir, String yaml, String... flags) throws Exception {
        Path config = Files.writeString(dir.resolve("saba.yaml"), yaml);
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        String[] args = new String[flags.length + 3];
        args[0] = "controller";
        args[1] = "--config";
        args[2] = config.toString();
        System.arraycopy(flags, 0, args, 3, flags.length);
        assertEquals(2, cl.execute(args), err.toString());
        String out = err.toString().strip();
        assertEquals(1, out.lines().count(), out);
        return out;
    }

    @Test
    void malformedYamlIsOneLineWithFileLineAndColumn(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2, gbps: 10\nlevels: 8\n");
        assertTrue(line.startsWith("saba controller: " + dir.resolve("saba.yaml") + ":3:"), line);
        assertTrue(line.contains("expected"), line);
    }

    @Test
    void aNestedValueOfTheWrongTypeIsRefused(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2, gbps: ten, queues: 4}\n");
        assertTrue(line.contains("saba.yaml: topology.gbps: 'ten' is not a number"), line);
    }

    @Test
    void aTopLevelValueOfTheWrongTypeIsRefused(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\nlevels: eight\ntopology: {shape: single-switch:2}\n");
        assertTrue(line.contains("saba.yaml: levels: 'eight' is not an integer"), line);
    }

    @Test
    void aValueOfTheWrongShapeSaysWhatWasExpected(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2}\nadmin-tenants: ops\n");
        assertTrue(line.endsWith("saba.yaml: admin-tenants: expected a list"), line);
        line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2, queues: [8]}\n");
        assertTrue(line.endsWith("saba.yaml: topology.queues: expected an integer"), line);
        line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2}\ntls: on\n");
        assertTrue(line.endsWith("saba.yaml: tls: expected a mapping"), line);
    }

    @Test
    void misspeltNestedKeysAreRefusedLikeTopLevelOnes(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2, gpbs: 10}\n");
        assertTrue(line.contains("saba.yaml: unknown key 'topology.gpbs'; known keys: [address-base, addresses,"),
                line);
        line = refusal(dir, """
                listen: 127.0.0.1:0
                topology:
                  hosts: [{name: h1, addresses: [10.0.0.1]}]
                  switches: [{name: s0, queus: 8}]
                  links: [{a: h1, b: s0, gbps: 10}]
                """);
        assertTrue(line.contains("saba.yaml: unknown key 'topology.switches[0].queus'; known keys: [name, queues]"),
                line);
        line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2}\ntls: {cert: a, kye: b}\n");
        assertTrue(line.contains("saba.yaml: unknown key 'tls.kye'; known keys: [cert, key]"), line);
    }

    @Test
    void aBadHttpFlagIsBlamedOnTheFlag(@TempDir Path dir) throws Exception {
        String line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2}\n", "--http", "7071x");
        assertEquals("saba controller: --http: '7071x' is not host:port", line);
        line = refusal(dir, "listen: 127.0.0.1:0\ntopology: {shape: single-switch:2}\n", "--listen", "nowhere");
        assertEquals("saba controller: --listen: 'nowhere' is not host:port", line);
    }
}
