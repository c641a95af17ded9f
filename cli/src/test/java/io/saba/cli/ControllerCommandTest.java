package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaClient;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControllerCommandTest {
    @Test
    void theStandaloneControllerServesClients(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1}
                table: %s
                backend-options: {log: false}
                journal-dir: state
                """.formatted(Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath()));
        var cl = SabaCli.newCommandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        int[] exit = {-1};
        Thread t = new Thread(() -> exit[0] = cl.execute("controller", "--config", dir.resolve("saba.yaml").toString()));
        t.start();
        Pattern p = Pattern.compile("gRPC on 127\\.0\\.0\\.1:(\\d+)");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Matcher m = p.matcher("");
        while (System.nanoTime() < end && !(m = p.matcher(out.toString())).find()) {
            Thread.sleep(20);
        }
        assertTrue(m.find(0), "startup line: " + out);
        try (SabaClient client = SabaClient.connect(ClientConfig.defaults("127.0.0.1:" + m.group(1)))) {
            var app = client.register(new AppSpec("a", "lr", "spark", "u", 0));
            // on a loaded machine the first call may miss its deadline; the client then retries: wait for the level
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (app.level() < 1 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            assertTrue(app.level() >= 1);
        }
        ControllerCommand command = cl.getSubcommands().get("controller").getCommand();
        command.stop();
        t.join(10_000);
        assertEquals(0, exit[0]);
        assertTrue(Files.exists(dir.resolve("state/journal.log")));
    }

    /** Issue #23 item 16: the status port from the command line, so group members can share one file. */
    @Test
    void theStatusPortComesFromTheCommandLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1}
                backend-options: {log: false}
                """);
        var cl = SabaCli.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int[] exit = {-1};
        Thread t = new Thread(() -> exit[0] = cl.execute("controller", "--config", dir.resolve("saba.yaml").toString(),
                "--http", "127.0.0.1:0"));
        t.start();
        Pattern p = Pattern.compile("status page on http://127\\.0\\.0\\.1:(\\d+)/status");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Matcher m = p.matcher("");
        while (System.nanoTime() < end && t.isAlive() && !(m = p.matcher(out.toString())).find()) {
            Thread.sleep(20);
        }
        assertTrue(m.find(0), "startup line: " + out + err);
        var http = java.net.http.HttpClient.newHttpClient();
        var page = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + m.group(1)
                + "/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("saba_applications"), page.body());
        ControllerCommand command = cl.getSubcommands().get("controller").getCommand();
        command.stop();
        t.join(10_000);
        assertEquals(0, exit[0]);
    }

    @Test
    void aMissingConfigIsNamed(@TempDir Path dir) {
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("controller", "--config", dir.resolve("nope.yaml").toString()));
        assertTrue(err.toString().contains("no such file"), err.toString());
    }

    @Test
    void aGroupRefusesHostQueuesBeforeConnecting(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1, host-queues: 4}
                """);
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        // no ZooKeeper at this address: the refusal must come first, from the configuration alone
        assertEquals(2, cl.execute("controller", "--config", dir.resolve("saba.yaml").toString(),
                "--group", "zk://127.0.0.1:1/saba"));
        assertTrue(err.toString().contains("a controller group programs switch ports only; remove 'host-queues'"),
                err.toString());
    }

    /**
     * With {@code backend: agents} a group takes {@code host-queues}: each host is held by one member, whose agent
     * follows it (the group's own tests in the agents module run it); any other backend is refused as before.
     */
    @Test
    void aGroupTakesHostQueuesWhenAgentsEnforceThem(@TempDir Path dir) throws Exception {
        String topology = "topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1,"
                + " host-queues: 4}\n";
        Files.writeString(dir.resolve("agents.yaml"), "listen: 127.0.0.1:0\n" + topology + "backend: agents\n");
        ControllerCommand.checkHostsInGroup(io.saba.controller.server.ControllerConfig.builder(
                dir.resolve("agents.yaml")));
        Files.writeString(dir.resolve("dry.yaml"), "listen: 127.0.0.1:0\n" + topology + "backend: dry-run\n");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ControllerCommand.checkHostsInGroup(io.saba.controller.server.ControllerConfig.builder(
                        dir.resolve("dry.yaml"))));
        assertTrue(e.getMessage().contains("or enforce at the hosts with backend: agents"), e.getMessage());
    }

    /** {@code --sensitivity} overrides the key; a bad value of either is one line and exit status 2 (issue 20). */
    @Test
    void aBadSensitivityIsOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        ControllerCommand c = new ControllerCommand();
        new picocli.CommandLine(c).parseArgs("--sensitivity", "Blended");
        var root = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        root.put("sensitivity", "table");
        c.applyFlags(root);
        assertEquals("blended", root.path("sensitivity").asText());

        Path config = Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                topology: {shape: single-switch:2, gbps: 10, queues: 4, address-base: 10.0.0.1}
                """);
        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("controller", "--config", config.toString(), "--sensitivity", "sometimes"));
        assertEquals("saba controller: --sensitivity must be table, online or blended, got 'sometimes'",
                err.toString().strip());

        Files.writeString(config, Files.readString(config) + "sensitivity: learnt\n");
        StringWriter err2 = new StringWriter();
        cl.setErr(new PrintWriter(err2, true));
        assertEquals(2, cl.execute("controller", "--config", config.toString()));
        assertEquals(1, err2.toString().strip().lines().count(), err2.toString());
        assertTrue(err2.toString().contains("saba.yaml: sensitivity must be table, online or blended, got 'learnt'"),
                err2.toString());
    }

    /** The InfiniBand discovery's refresh period and start-up wait come from flags too (issue 23 item 6). */
    @Test
    void theInfinibandRefreshAndSubnetWaitComeFromFlags(@TempDir Path dir) throws Exception {
        ControllerCommand c = new ControllerCommand();
        new picocli.CommandLine(c).parseArgs("--fabric", "infiniband", "--ib-refresh", "2", "--ib-subnet-wait",
                "60");
        var root = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        c.applyFlags(root);
        assertEquals("infiniband", root.path("topology").path("discover").asText());
        assertEquals(2, root.path("topology").path("refresh-seconds").asInt());
        assertEquals(60, root.path("topology").path("subnet-wait-seconds").asInt());

        var cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        Path config = Files.writeString(dir.resolve("saba.yaml"),
                "topology: {shape: single-switch:2, gbps: 10, queues: 4, address-base: 10.0.0.1}\n");
        assertEquals(2, cl.execute("controller", "--config", config.toString(), "--ib-refresh", "2"));
        assertTrue(err.toString().contains("--ib-* flags go with --fabric infiniband"), err.toString());
    }

    @Test
    void theBenchmarkRunsSmall() {
        assertEquals(0, SabaCli.newCommandLine().execute("controller", "bench", "--apps", "20", "--connections",
                "600", "--rate", "2000", "--shape", "single-switch:8", "--fsync", "NEVER"));
    }
}
