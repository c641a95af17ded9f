package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, items 5 and 9: which sensitivity table a controller runs with must not be a surprise. A controller
 * process without a table warns at start and says so on /status; one whose journal holds a table saved by
 * ReloadTable that differs from its (since edited) table file warns naming both and shows which is in force.
 */
class TableInForceTest {
    private static final Pattern HTTP = Pattern.compile("status page on (http://127\\.0\\.0\\.1:\\d+)/status");

    @Test
    void noTableIsWarnedAboutAndShownOnStatus(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("saba.yaml"), String.join("\n",
                "listen: 127.0.0.1:0", "http: 127.0.0.1:0",
                "topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1}",
                "backend-options: {log: false}", ""));
        Running c = Running.start(dir, config);
        try {
            assertTrue(c.err().contains("WARN") && c.err().contains("no sensitivity table"), c.err());
            assertTrue(c.get("/status.json").contains("\"table\" : \"none: every workload gets the default model"),
                    c.get("/status.json"));
            assertTrue(c.get("/status").contains("sensitivity table: none"), c.get("/status"));
        } finally {
            c.stop();
        }
    }

    @Test
    void aReloadedTableThatDiffersFromTheEditedFileIsWarnedAboutAndShown(@TempDir Path dir) throws Exception {
        Path table = dir.resolve("table.json");
        String json = Files.readString(Path.of("..", "examples", "sensitivity-table.json"));
        Files.writeString(table, json);
        Path config = Files.writeString(dir.resolve("saba.yaml"), String.join("\n",
                "listen: 127.0.0.1:0", "http: 127.0.0.1:0",
                "topology: {shape: single-switch:4, gbps: 10, queues: 4, address-base: 10.0.0.1}",
                "backend-options: {log: false}", "table: table.json", "journal-dir: state", ""));
        try (EmbeddedController first = ControllerConfig.load(config)) {
            first.start();
            first.api().reloadTable(json.replace("\"gbt\"", "\"reloaded-workload\""));
        }
        Files.writeString(table, json.replace("\"gbt\"", "\"edited-workload\"")); // the operator edits the file
        Running c = Running.start(dir, config);
        try {
            assertTrue(c.err().contains("WARN") && c.err().contains(dir.resolve("state").resolve("journal.log")
                    .toString()) && c.err().contains(table.toString()), c.err());
            String status = c.get("/status.json");
            assertTrue(status.contains("saved by ReloadTable in ") && status.contains("the configured file " + table
                    + " differs and is not in force"), status);
        } finally {
            c.stop();
        }
    }

    /** A controller process and its status page. */
    private record Running(Process process, Path errFile, String base) {
        static Running start(Path dir, Path config) throws Exception {
            Path out = dir.resolve("controller.out");
            Path err = dir.resolve("controller.err");
            Process p = SabaProcess.start(dir, out, err, "controller", "--config", config.toString());
            Matcher m = HTTP.matcher("");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < end && p.isAlive() && !(m = HTTP.matcher(Files.readString(out))).find()) {
                Thread.sleep(100);
            }
            if (!m.find(0)) {
                p.destroyForcibly();
                throw new AssertionError("the controller did not start: " + Files.readString(err));
            }
            return new Running(p, err, m.group(1));
        }

        String err() throws Exception {
            return Files.readString(errFile);
        }

        String get(String path) throws Exception {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        }

        void stop() throws InterruptedException {
            process.destroy();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
