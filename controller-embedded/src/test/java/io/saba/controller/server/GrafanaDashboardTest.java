package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard shipped in {@code grafana/saba-controller.json} (no Grafana runs here: Debian does not
 * package it): it is a dashboard Grafana can import (panels with ids, places on the 24-column grid that do not
 * overlap, a Prometheus query each), and every metric it queries is one a real controller's /metrics serves; the
 * {@code saba_group_*} ones are checked against a group's members in controller-zk's GroupReliabilityTest.
 */
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("grafana", "saba-controller.json");
    private static final Pattern METRIC = Pattern.compile("\\bsaba_[a-z_]+");

    @Test
    void panelsAreWellFormedAndQueryOnlyMetricsTheControllerServes() throws Exception {
        JsonNode d = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        assertEquals("saba-controller", d.get("uid").asText());
        Set<Integer> ids = new HashSet<>();
        Set<String> cells = new HashSet<>();
        Set<String> queried = new TreeSet<>();
        for (JsonNode p : d.get("panels")) {
            assertTrue(ids.add(p.get("id").asInt()), "panel ids are unique: " + p.get("id"));
            assertFalse(p.get("title").asText().matches("(?i).*(\\bissue\\b|#\\d).*"),
                    "a title says what the panel shows, not which issue asked for it: " + p.get("title"));
            JsonNode g = p.get("gridPos");
            assertTrue(g.get("x").asInt() + g.get("w").asInt() <= 24, p.get("title") + " fits the grid");
            for (int x = g.get("x").asInt(); x < g.get("x").asInt() + g.get("w").asInt(); x++) {
                for (int y = g.get("y").asInt(); y < g.get("y").asInt() + g.get("h").asInt(); y++) {
                    assertTrue(cells.add(x + "," + y), p.get("title") + " overlaps another panel at " + x + "," + y);
                }
            }
            if (p.get("type").asText().equals("row")) {
                continue;
            }
            assertEquals("${DS_PROMETHEUS}", p.at("/datasource/uid").asText(), p.get("title").asText());
            assertFalse(p.get("targets").isEmpty(), p.get("title") + " queries something");
            for (JsonNode t : p.get("targets")) {
                Matcher m = METRIC.matcher(t.get("expr").asText());
                while (m.find()) {
                    queried.add(m.group().replaceAll("_(bucket|sum|count)$", ""));
                }
            }
        }
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            c.start();
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + c.httpAddress().getPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            Set<String> served = new TreeSet<>();
            Matcher m = Pattern.compile("(?m)^# TYPE (saba_[a-z_]+) ").matcher(metrics);
            while (m.find()) {
                served.add(m.group(1));
            }
            Set<String> missing = new TreeSet<>(queried);
            missing.removeAll(served);
            missing.removeIf(name -> name.startsWith("saba_group_"));
            assertTrue(missing.isEmpty(), "queried but not served: " + missing + " (served: " + served + ")");
            Set<String> unused = new TreeSet<>(served);
            unused.removeAll(queried);
            assertTrue(unused.isEmpty(), "served but on no panel: " + unused);
        }
    }
}
