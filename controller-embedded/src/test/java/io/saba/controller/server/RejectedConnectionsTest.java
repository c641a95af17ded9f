package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A connection reported from an address outside the topology (a local Spark job reports 127.0.0.1) is refused; the
 * operator sees it per application on /status and /status.json, with the reason, and the client learns it per
 * connection (its application counts them and logs the first).
 */
class RejectedConnectionsTest {
    @Test
    void aConnectionOutsideTheTopologyIsShownWithItsReason() throws Exception {
        try (EmbeddedController c = Fixtures.builder().http(new InetSocketAddress("127.0.0.1", 0)).build()) {
            var at = c.start();
            String base = "http://127.0.0.1:" + c.httpAddress().getPort();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults("127.0.0.1:" + at.getPort()))) {
                var app = client.register(new AppSpec("local-job", "lr", "spark", "u", 0));
                app.assigned().get(30, TimeUnit.SECONDS);
                app.connectionOpened(new InetSocketAddress("127.0.0.1", 40000),
                        new InetSocketAddress("10.0.0.2", 7337), Transport.TCP);
                app.connectionOpened(new InetSocketAddress("10.0.0.1", 40001),
                        new InetSocketAddress("10.0.0.2", 7337), Transport.TCP);
                JsonNode a = null;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (System.nanoTime() < end) {
                    a = new ObjectMapper().readTree(get(base + "/status.json")).get("applications").get(0);
                    if (a.path("connections_rejected").asLong() > 0 && a.path("connections").asLong() > 0) {
                        break;
                    }
                    Thread.sleep(50);
                }
                assertEquals(1, a.path("connections").asLong(), a.toString());
                assertEquals(1, a.path("connections_rejected").asLong(), a.toString());
                assertEquals("source endpoint 127.0.0.1:40000: no topology host has address 127.0.0.1",
                        a.path("last_rejection").asText(), a.toString());
                end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (app.rejectedConnections() == 0 && System.nanoTime() < end) {
                    Thread.sleep(50);
                }
                assertEquals(1, app.rejectedConnections());
                assertEquals("source endpoint 127.0.0.1:40000: no topology host has address 127.0.0.1",
                        app.lastRejection());
                String page = get(base + "/status");
                assertTrue(page.contains("1 rejected: source endpoint 127.0.0.1:40000: no topology host has address"
                        + " 127.0.0.1"), page);
            }
        }
    }

    private static String get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
