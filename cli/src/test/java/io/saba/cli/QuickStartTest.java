package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 21 part 4: {@code saba controller} with no configuration starts the quick start (one switch, the example
 * table, the dry-run fabric, the status page) and says where everything is. Here on free ports, with an application
 * registered over real gRPC by the client library and found on /status.json.
 */
class QuickStartTest {
    @Test
    void theQuickStartServesAnApplicationAndShowsItOnTheStatusPage() throws Exception {
        CommandLine cl = SabaCli.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int[] exit = {-1};
        Thread t = new Thread(() -> exit[0] = cl.execute("controller", "--listen", "127.0.0.1:0",
                "--http", "127.0.0.1:0"));
        t.start();
        try {
            String banner = awaitLine(out, err, t, "^To go real: .*$");
            String grpc = find(banner, "^  gRPC +(127\\.0\\.0\\.1:\\d+) ");
            String status = find(banner, "^  status page +(http://127\\.0\\.0\\.1:\\d+)/status ");
            assertEquals(status + "/metrics", find(banner, "^  metrics +(\\S+)$"), banner);
            assertTrue(banner.contains("quick start (no --config), from " + QuickStart.CONFIG
                    + " (bundled in saba-cli.jar)"), banner);
            assertTrue(find(banner, "^  table +(.*)$").startsWith(QuickStart.TABLE), banner);
            assertTrue(find(banner, "^  fabric +(.*)$").startsWith("dry-run: "), banner);
            assertTrue(find(banner, "^  topology +(.*)$").startsWith("switch s0; hosts h1 10.0.0.1, h2 10.0.0.2, h3"
                    + " 10.0.0.3, h4 10.0.0.4"), banner);
            assertTrue(banner.contains("saba controller --config FILE"), banner);

            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(grpc))) {
                SabaApplication app = client.register(new AppSpec("quick-lr", "lr", "spark", "u", 0));
                app.assigned().get(30, TimeUnit.SECONDS);
                app.connectionOpened(new InetSocketAddress("10.0.0.1", 40000), new InetSocketAddress("10.0.0.2", 7337),
                        Transport.TCP);
                JsonNode seen = awaitStatus(status + "/status.json", "quick-lr");
                assertEquals("lr", seen.path("workload").asText(), seen.toString());
                assertTrue(seen.path("workload_known").asBoolean(), "lr is in the example table: " + seen);
                assertTrue(seen.path("level").asInt() >= 1, seen.toString());
                assertEquals(1, seen.path("connections").asInt(), seen.toString());
            }
        } finally {
            ControllerCommand command = cl.getSubcommands().get("controller").getCommand();
            command.stop();
            t.join(10_000);
        }
        assertEquals(0, exit[0], err.toString());
    }

    /** From a checkout (bin/saba sets saba.home) the quick start reads the checkout's files, as --config would. */
    @Test
    void fromACheckoutTheQuickStartReadsItsFiles(@TempDir Path dir) throws Exception {
        Path home = Path.of("..").toAbsolutePath().normalize();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            // the default ports may be anyone's here: a taken gRPC port shows the refusal, one line naming it
            SabaProcess.Result r = SabaProcess.run(dir, 120, List.of("-Dsaba.home=" + home), "controller", "--listen",
                    "127.0.0.1:" + taken.getLocalPort());
            assertEquals(2, r.exit(), r.out() + r.err());
            ControllerStartupFailureTest.oneLine(r.errLines(), "gRPC address 127.0.0.1:" + taken.getLocalPort()
                    + " is in use");
        }
        QuickStart q = withHome(home);
        assertEquals(home.resolve(QuickStart.CONFIG).toString(), q.source);
    }

    /** Bad input is still one line naming it, and exit status 2. */
    @Test
    void aBadFlagIsOneLineAndExitTwo() {
        CommandLine cl = SabaCli.newCommandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("controller", "--listen", "nowhere"));
        List<String> lines = err.toString().strip().lines().toList();
        assertEquals(1, lines.size(), err.toString());
        assertTrue(lines.get(0).startsWith("saba controller: ") && lines.get(0).contains("'nowhere' is not host:port"),
                lines.get(0));
    }

    private static QuickStart withHome(Path home) throws Exception {
        String before = System.getProperty("saba.home");
        System.setProperty("saba.home", home.toString());
        try {
            return QuickStart.load();
        } finally {
            if (before == null) {
                System.clearProperty("saba.home");
            } else {
                System.setProperty("saba.home", before);
            }
        }
    }

    /** Everything printed up to the first line matching {@code last}. */
    private static String awaitLine(StringWriter out, StringWriter err, Thread t, String last) throws Exception {
        Pattern p = Pattern.compile(last, Pattern.MULTILINE);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end && t.isAlive()) {
            Matcher m = p.matcher(out.toString());
            if (m.find()) {
                return out.toString().substring(0, m.end());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no line " + last + " in: " + out + err);
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        assertTrue(m.find(), regex + " in:\n" + text);
        return m.group(1);
    }

    /** The application's entry on /status.json once it shows one connection (the client reports asynchronously). */
    private static JsonNode awaitStatus(String url, String appId) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = "";
        while (System.nanoTime() < end) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            last = r.body();
            for (JsonNode a : new ObjectMapper().readTree(last).path("applications")) {
                if (a.path("app_id").asText().equals(appId) && a.path("connections").asInt() == 1) {
                    return a;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError(appId + " with one connection never showed on " + url + ": " + last);
    }
}
