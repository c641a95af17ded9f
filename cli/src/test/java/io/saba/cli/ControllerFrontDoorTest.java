package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a standalone controller process shows a newcomer: its pages and metrics before and after a job, its logs. */
class ControllerFrontDoorTest {
    private static final Pattern STARTED = Pattern.compile("gRPC on (127\\.0\\.0\\.1:\\d+), status page on "
            + "(http://127\\.0\\.0\\.1:\\d+)/status");

    @Test
    void aControllerExplainsItselfFromStartToStop(@TempDir Path dir) throws Exception {
        Path config = Files.writeString(dir.resolve("saba.yaml"), """
                listen: 127.0.0.1:0
                http: 0
                topology: {shape: single-switch:2, gbps: 10, queues: 4, address-base: 10.0.0.1}
                table: %s
                c-saba: 0.9
                """.formatted(Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath()));
        Path out = dir.resolve("controller.out");
        Path err = dir.resolve("controller.err");
        Process p = SabaProcess.start(dir, out, err, "controller", "--config", config.toString());
        try {
            Matcher m = STARTED.matcher("");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (System.nanoTime() < end && p.isAlive() && !(m = STARTED.matcher(Files.readString(out))).find()) {
                Thread.sleep(100);
            }
            assertTrue(m.find(0), "started: " + Files.readString(out) + Files.readString(err));
            String grpc = m.group(1);
            String http = m.group(2);

            String metrics = get(http + "/metrics");
            List<String> lines = metrics.lines().toList();
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("# TYPE ")) {
                    String name = lines.get(i).split(" ")[2];
                    assertTrue(i > 0 && lines.get(i - 1).startsWith("# HELP " + name + " "), "no HELP: " + name);
                }
            }
            assertTrue(metrics.contains("saba_push_lag_seconds{quantile=\"0.5\"} NaN"), "nothing measured yet");
            assertTrue(metrics.lines().anyMatch(l -> l.matches("saba_build_info\\{version=\"[^\"]+\",java=\"[^\"]+\"} 1")),
                    metrics);
            String empty = get(http + "/status");
            assertTrue(empty.contains("No application has registered yet") && empty.contains(grpc), empty);

            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(grpc))) {
                var lr = client.register(new AppSpec("a-lr", "lr", "spark", "u", 0));
                var sort = client.register(new AppSpec("a-sort", "sort", "spark", "u", 0));
                lr.assigned().get(30, TimeUnit.SECONDS);
                sort.assigned().get(30, TimeUnit.SECONDS);
                InetSocketAddress h1 = new InetSocketAddress("10.0.0.1", 40000);
                InetSocketAddress h2 = new InetSocketAddress("10.0.0.2", 7337);
                lr.connectionOpened(h1, h2, Transport.TCP);
                sort.connectionOpened(new InetSocketAddress("10.0.0.1", 40001), h2, Transport.TCP);
                String status = "";
                end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < end && !(status = get(http + "/status")).contains("1 port configured")) {
                    Thread.sleep(100);
                }
                assertTrue(status.contains("<b>1</b> port configured"), status);
                assertTrue(status.matches("(?s).*predicted slowdowns, summed: \\d+\\.\\d\\d[^×].*"), status);
            }
            String log = Files.readString(err);
            assertTrue(log.contains("dry-run: port"), log);
            assertFalse(log.matches("(?s).*\\d\\.\\d{6,}.*"), "raw doubles in the log: " + log);
        } finally {
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        List<String> said = Files.readAllLines(out);
        assertTrue(said.get(said.size() - 1).startsWith("saba controller: stopped"), String.join("\n", said));
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
