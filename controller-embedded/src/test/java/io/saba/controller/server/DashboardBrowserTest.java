package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.topology.Topologies;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in a real headless Chromium, against a real controller (gRPC on loopback) that real clients
 * (saba-client) registered applications and connections with: the bars, labels and numbers the page's script
 * leaves in the DOM match /status.json, the page follows an allocation change without reloading, and the filter
 * and the pages work at 10,000 ports (the times it took are printed, not asserted: timings belong in benchmarks).
 */
class DashboardBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration BOUND = Duration.ofSeconds(60);
    /** What the page must not show: a raw double such as 0.09999999999999998. */
    private static final Pattern RAW_DOUBLE = Pattern.compile("\\d\\.\\d{5,}");
    private static Path browser;

    @BeforeAll
    static void chromium() {
        Optional<Path> found = HeadlessChromium.find();
        Assumptions.assumeTrue(found.isPresent(), "chromium is not installed (Debian package 'chromium'; "
                + ".ci/run installs it): the dashboard's browser tests skip");
        browser = found.get();
    }

    @Test
    void barsLabelsAndNumbersMatchTheJsonAndFollowAnAllocationChange(@TempDir Path dir) throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()));
                 HeadlessChromium chrome = HeadlessChromium.start(browser, dir.resolve("profile"), 1280, 1000)) {
                SabaApplication lr = registered(client, "job-lr", "lr");
                SabaApplication wc = registered(client, "job-wc", "wc");
                open(lr, 1, 2, 5000);
                open(wc, 3, 2, 5001);      // both cross s0:2 (towards h2)
                open(lr, 1, 4, 5002);      // job-lr and job-svm cross s0:4
                SabaApplication svm = registered(client, "job-svm", "svm");
                open(svm, 6, 4, 5004);
                SabaApplication pr = registered(client, "job-pr", "pr");
                open(pr, 6, 7, 5005);      // only job-pr crosses s0:7
                awaitPorts(c, 3);

                chrome.open(base + "/status");
                chrome.waitFor("document.getElementById('state').textContent.startsWith('live')", BOUND);
                JsonNode json = json(base);
                assertEquals(3, json.get("ports").size());
                for (JsonNode port : json.get("ports")) {
                    assertPortMatchesJson(chrome, json, port.get("port").asText());
                }
                for (JsonNode app : json.get("applications")) {
                    assertAppMatchesJson(chrome, app);
                }
                String text = chrome.eval("document.body.innerText").asText();
                assertFalse(RAW_DOUBLE.matcher(text).find(), "numbers are for people: " + text);
                assertTrue(text.contains("drift: this backend does not read its ports back"), text);
                String push = chrome.eval("document.querySelector('.last-push').innerText").asText();
                assertTrue(push.contains("allocation version " + json.at("/fabric/last_push/version").asLong())
                        && push.contains("no failure"), push);

                // an allocation change reaches the open page without a reload (the marker would not survive one)
                chrome.eval("window.stillThisPage = true");
                long version = json.get("allocation_version").asLong();
                SabaApplication sort = registered(client, "job-sort", "sort");
                open(sort, 5, 2, 5003);    // a third application on s0:2
                chrome.waitFor("document.querySelector('.port[data-port=\"s0:2\"] .bar [data-app=\"job-sort\"]')"
                        + " !== null && Number(document.querySelector('.view').dataset.version) > " + version, BOUND);
                assertTrue(chrome.eval("window.stillThisPage === true").asBoolean(), "updated in place");
                awaitPorts(c, 3);
                // the page may have rendered the change a round before the last push: wait until it shows the last
                long last = c.controller().recomputer().version();
                chrome.waitFor("Number(document.querySelector('.view').dataset.version) === " + last, BOUND);
                assertPortMatchesJson(chrome, json(base), "s0:2");

                // the filter: only what matches, on the page and in the address (so it can be shared)
                chrome.type("#q", "job-wc");
                chrome.waitFor("document.querySelector('.view').dataset.filter === 'job-wc'", BOUND);
                assertEquals(List.of("s0:2"), strings(chrome.eval(
                        "[...document.querySelectorAll('.port')].map(p => p.dataset.port)")));
                assertEquals(List.of("job-wc"), strings(chrome.eval(
                        "[...document.querySelectorAll('tr[data-app]')].map(r => r.dataset.app)")));
                assertEquals("?q=job-wc", chrome.eval("location.search").asText());
                chrome.type("#q", "");
                chrome.waitFor("document.querySelector('.view').dataset.filter === ''", BOUND);
                Files.write(Path.of("target", "dashboard.png"), chrome.screenshot());
            }
        }
    }

    /**
     * 10,000 ports: one source host sending to 10,000 others through one switch, four applications of different
     * workloads spread over them. The page shows 50 ports at a time, the filter finds the few that match, the pages
     * turn; the times are printed for the report.
     */
    @Test
    void tenThousandPortsFilterAndTurnPages(@TempDir Path dir) throws Exception {
        int ports = 10_000;
        int hosts = ports + 1;
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        for (int h = 1; h <= hosts; h++) {
            addresses.put("h" + h, List.of(address(h)));
        }
        TopologyResolver topology = new TopologyResolver(Topologies.singleSwitch(hosts, 10, 8), addresses);
        try (EmbeddedController c = EmbeddedController.builder().topology(topology).table(Fixtures.catalog())
                .backend(new DryRunBackend(false, 100), true).leaseTimeout(Duration.ofSeconds(120))
                .http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            // app k sends to every (k+1)-th host of h2..h10001 from its own port; h2 + i leaves s0 by port 2 + i
            String[] workloads = {"lr", "pr", "svm", "wc"};
            int[] every = {1, 2, 3, 7};
            long t0 = System.nanoTime();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target()))) {
                for (int k = 0; k < workloads.length; k++) {
                    SabaApplication app = registered(client, "app-" + k, workloads[k]);
                    for (int i = 0; i < ports; i += every[k]) {
                        app.connectionOpened(new InetSocketAddress(address(1), 10_000 + k),
                                new InetSocketAddress(address(2 + i), 80), Transport.TCP);
                    }
                }
                awaitPorts(c, ports);
                System.out.printf(Locale.ROOT, "dashboard at 10,000 ports: %d connections reported and allocated in"
                        + " %.1f s%n", c.controller().connectionCount(), seconds(t0));

                System.out.printf(Locale.ROOT, "  /status: %s%n  /status?part=live&q=s0:777: %s%n  /status.json: %s%n",
                        timed(base + "/status"), timed(base + "/status?part=live&q=s0:777"),
                        timed(base + "/status.json"));

                try (HeadlessChromium chrome = HeadlessChromium.start(browser, dir.resolve("profile"), 1280, 1000)) {
                    long t3 = System.nanoTime();
                    chrome.open(base + "/status");
                    chrome.waitFor("document.getElementById('state').textContent.startsWith('live')", BOUND);
                    double loaded = seconds(t3);
                    JsonNode nav = chrome.eval("(() => { const n = performance.getEntriesByType('navigation')[0];"
                            + " return [n.responseEnd - n.requestStart, n.domContentLoadedEventEnd - n.responseEnd]; })()");
                    assertEquals(50, chrome.eval("document.querySelectorAll('.port').length").asInt());
                    assertEquals("showing 1–50 of 10,000 ports",
                            chrome.eval("document.querySelector('#ports .count').innerText").asText());
                    assertEquals("s0:2", chrome.eval("document.querySelector('.port').dataset.port").asText());

                    long t4 = System.nanoTime();
                    chrome.type("#q", "s0:777");
                    chrome.waitFor("document.querySelector('.view').dataset.filter === 's0:777'", BOUND);
                    double filtered = seconds(t4);
                    List<String> shown = strings(chrome.eval(
                            "[...document.querySelectorAll('.port')].map(p => p.dataset.port)"));
                    List<String> expected = new ArrayList<>(List.of("s0:777"));
                    for (int d = 0; d <= 9; d++) {
                        expected.add("s0:777" + d);
                    }
                    assertEquals(new TreeSet<>(expected), new TreeSet<>(shown), "every port named like it, only");
                    assertEquals("showing 1–11 of 11 matching (10,000 in all)",
                            chrome.eval("document.querySelector('#ports .count').innerText").asText());

                    // an application's ports: app-3 sends to every 7th host
                    long t5 = System.nanoTime();
                    chrome.type("#q", "app-3");
                    chrome.waitFor("document.querySelector('.view').dataset.filter === 'app-3'", BOUND);
                    double byApp = seconds(t5);
                    int app3 = (ports + 6) / 7;
                    assertEquals("showing 1–50 of " + String.format(Locale.ROOT, "%,d", app3)
                            + " matching (10,000 in all)",
                            chrome.eval("document.querySelector('#ports .count').innerText").asText());
                    assertEquals(List.of("app-3"), strings(chrome.eval(
                            "[...document.querySelectorAll('tr[data-app]')].map(r => r.dataset.app)")));

                    long t6 = System.nanoTime();
                    chrome.eval("[...document.querySelectorAll('#ports .pager a')].find(a => a.innerText.startsWith('next'))"
                            + ".click()");
                    chrome.waitFor("document.querySelector('#ports .count').innerText.startsWith('showing 51–100')",
                            BOUND);
                    double turned = seconds(t6);
                    // every port on page 2 is one app-3 crosses: s0:(2 + 7j), j = 50..99, in name order
                    for (String p : strings(chrome.eval(
                            "[...document.querySelectorAll('.port')].map(p => p.dataset.port)"))) {
                        assertEquals(0, (Integer.parseInt(p.substring(3)) - 2) % 7, p);
                    }
                    assertTrue(chrome.eval("location.search").asText().contains("page=2"));
                    System.out.printf(Locale.ROOT, "  in chromium: first page shown %.0f ms after navigating (request to"
                                    + " response %.0f ms, then parsed and its script run in %.0f ms); filter 's0:777'"
                                    + " shown %.0f ms after typing began (6 keystrokes); 'app-3' %.0f ms; next page"
                                    + " %.0f ms; %d DOM elements%n", 1000 * loaded, nav.get(0).asDouble(),
                            nav.get(1).asDouble(), 1000 * filtered, 1000 * byApp, 1000 * turned,
                            chrome.eval("document.getElementsByTagName('*').length").asInt());
                }
            }
        }
    }

    /** The port's bar on the page against /status.json: its queues' weights, levels, applications and labels. */
    private static void assertPortMatchesJson(HeadlessChromium chrome, JsonNode json, String port) throws Exception {
        JsonNode p = null;
        for (JsonNode candidate : json.get("ports")) {
            if (candidate.get("port").asText().equals(port)) {
                p = candidate;
            }
        }
        assertTrue(p != null, port + " in " + json);
        Map<String, Integer> levelOfApp = new LinkedHashMap<>();
        json.get("applications").forEach(a -> levelOfApp.put(a.get("app_id").asText(), a.get("level").asInt()));
        String sel = "document.querySelector('.port[data-port=\"" + port + "\"]')";
        JsonNode segments = chrome.eval("[..." + sel + ".querySelectorAll('.bar .q')].map(q => ({queue: +q.dataset"
                + ".queue, weight: +q.dataset.weight, width: parseFloat(q.style.width), apps: [...q.querySelectorAll('[data-app]')]"
                + ".map(a => a.dataset.app), text: q.innerText}))");
        JsonNode weights = p.get("queue_weights");
        int nonZero = 0;
        for (JsonNode w : weights) {
            nonZero += w.asDouble() > 0 ? 1 : 0;
        }
        assertEquals(nonZero, segments.size(), "one segment per weighted queue: " + segments);
        String legend = chrome.eval(sel + ".querySelector('.legend').innerText").asText();
        for (JsonNode s : segments) {
            int queue = s.get("queue").asInt();
            double w = weights.get(queue).asDouble();
            assertEquals(w, s.get("weight").asDouble(), 0, "queue " + queue + " of " + port);
            assertEquals(100 * w, s.get("width").asDouble(), 0.0005, "the segment is as wide as the queue's weight");
            assertTrue(legend.contains(String.format(Locale.ROOT, "queue %d", queue)) && legend.contains(
                    String.format(Locale.ROOT, "%.1f %%", 100 * w)), legend);
            for (JsonNode app : s.get("apps")) {
                String id = app.asText();
                int level = levelOfApp.get(id);
                assertEquals(queue, p.get("queue_of_level").get(String.valueOf(level)).asInt(),
                        id + " is drawn in its level's queue");
                String share = String.format(Locale.ROOT, "%.1f %%", 100 * p.get("app_weights").get(id).asDouble());
                assertTrue(s.get("text").asText().contains(id + " " + share), s.toString());
                assertTrue(legend.contains("L" + level) && legend.contains(id + " " + share), legend);
            }
        }
        List<String> drawn = new ArrayList<>();
        segments.forEach(s -> s.get("apps").forEach(a -> drawn.add(a.asText())));
        List<String> onPort = new ArrayList<>();
        p.get("app_weights").fieldNames().forEachRemaining(onPort::add);
        assertEquals(new TreeSet<>(onPort), new TreeSet<>(drawn), "every application on the port is drawn");
        assertEquals(onPort.size(), drawn.size(), "and once");
        String head = chrome.eval(sel + ".querySelector('.port-head').innerText").asText();
        // a port's figure is a sum of slowdowns, not a slowdown: a plain number, without ×
        assertTrue(head.contains(String.format(Locale.ROOT, "predicted slowdowns, summed: %.2f",
                p.get("predicted_slowdown").asDouble())) && !head.contains("×"), head);
    }

    /** The application's row against /status.json: level, predicted slowdown, and its weight on each port. */
    private static void assertAppMatchesJson(HeadlessChromium chrome, JsonNode app) throws Exception {
        String id = app.get("app_id").asText();
        String row = "document.querySelector('tr[data-app=\"" + id + "\"]')";
        String text = chrome.eval(row + ".innerText").asText();
        assertEquals("L" + app.get("level").asInt(), chrome.eval(row + ".querySelector('.chip').innerText").asText());
        assertEquals(String.format(Locale.ROOT, "%.2f×", app.get("predicted_slowdown").asDouble()),
                chrome.eval(row + ".querySelector('.slowdown').innerText").asText());
        for (JsonNode share : app.get("ports")) {
            String expected = share.get("port").asText() + " "
                    + String.format(Locale.ROOT, "%.1f %%", 100 * share.get("weight").asDouble()) + " ("
                    + String.format(Locale.ROOT, "%.2f×", share.get("predicted_slowdown").asDouble()) + ")";
            assertTrue(text.contains(expected), expected + " in " + text);
        }
    }

    private static SabaApplication registered(SabaClient client, String id, String workload) throws Exception {
        SabaApplication app = client.register(new AppSpec(id, workload, "test", "ops", 0));
        await(id + " has a level").atMost(Fixtures.PATIENCE).until(() -> app.level() >= 1);
        return app;
    }

    private static void open(SabaApplication app, int srcHost, int dstHost, int srcPort) {
        app.connectionOpened(new InetSocketAddress("10.0.0." + srcHost, srcPort),
                new InetSocketAddress("10.0.0." + dstHost, 80), Transport.TCP);
    }

    /** Waits until this many ports are configured and nothing is left to recompute. */
    private static void awaitPorts(EmbeddedController c, int ports) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (c.controller().recomputer().current().size() < ports || !c.controller().recomputer().idle()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("only " + c.controller().recomputer().current().size() + " of " + ports
                        + " ports configured");
            }
            Thread.sleep(20);
        }
        Fixtures.quiesce(c);
    }

    private static String address(int host) {
        return "10.1." + host / 256 + "." + host % 256;
    }

    private static JsonNode json(String base) throws Exception {
        return JSON.readTree(get(base + "/status.json"));
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url);
        return r.body();
    }

    /**
     * "73,809 bytes; 20 requests: first 3000 ms, then 609–1096 ms; 9.1 ms CPU each": wall times (the first pays for
     * class loading and the JIT; on a shared machine they are mostly waiting), and the CPU this JVM (controller,
     * client, JIT and GC threads) spent per request over the last ten, which a loaded machine changes far less.
     */
    private static String timed(String url) throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        List<Double> ms = new ArrayList<>();
        int bytes = 0;
        long cpu = 0;
        int requests = 20;
        for (int i = 0; i < requests; i++) {
            long t = System.nanoTime();
            long c0 = os.getProcessCpuTime();
            bytes = get(url).length();
            cpu += i < requests - 10 ? 0 : os.getProcessCpuTime() - c0;
            ms.add(1000 * seconds(t));
        }
        List<Double> warm = new ArrayList<>(ms.subList(1, ms.size()));
        warm.sort(null);
        return String.format(Locale.ROOT, "%,d bytes; %d requests: first %.0f ms, then %.0f–%.0f ms (median %.0f);"
                + " %.1f ms CPU each", bytes, requests, ms.get(0), warm.get(0), warm.get(warm.size() - 1),
                warm.get(warm.size() / 2), cpu / 1e6 / 10);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
