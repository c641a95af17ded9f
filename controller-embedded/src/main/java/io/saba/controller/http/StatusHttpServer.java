package io.saba.controller.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.saba.controller.ControllerApi;
import io.saba.controller.StatusView;
import io.saba.controller.Tenants;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Read-only HTTP: {@code /metrics} (Prometheus text), {@code /status} (the dashboard, {@link DashboardPage}) and
 * {@code /status.json} (the same data, raw: {@link StatusJson}). Only GET and HEAD are served; the JDK's built-in
 * server keeps this free of web-framework dependencies, and the dashboard carries its styles and script inline, so
 * it needs nothing from elsewhere (it works offline).
 *
 * <p>Access is gRPC's: when tokens are configured every page needs {@code Authorization: Bearer TOKEN} with a
 * tenant's token (401 otherwise, counted with the controller's refusals), and the status pages show that tenant's
 * applications only (admins see all); {@code /metrics}, which holds counts and no tenant's data, takes any tenant's
 * token (a Prometheus scrape job sends one: {@code authorization: {credentials_file: …}}). Without tokens the pages
 * are open, which {@link #access()} says (the controller logs it and the page shows it).
 */
public final class StatusHttpServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor;
    private final ControllerApi controller;
    private final Tenants tenants;
    private volatile String grpcAddress;
    /** Records (the work signals) with the saba.v1 message's field names: network_wait_millis, not networkWaitMillis. */
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    /** The address clients reach the controller at, shown on an empty dashboard; set before {@link #start}. */
    public void grpcAddress(String hostPort) {
        this.grpcAddress = hostPort;
    }

    public StatusHttpServer(InetSocketAddress listen, ControllerApi controller, Tenants tenants) {
        this.controller = controller;
        this.tenants = tenants;
        try {
            this.server = HttpServer.create(listen, 64);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen for HTTP on " + listen + ": " + e.getMessage(), e);
        }
        this.executor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "saba-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/metrics", x -> serve(x, "text/plain; version=0.0.4; charset=utf-8",
                (x2, tenant) -> controller.metrics().prometheus()));
        server.createContext("/status.json", x -> serve(x, "application/json", this::statusJson));
        server.createContext("/status", x -> serve(x, "text/html; charset=utf-8", this::dashboard));
        server.createContext("/", x -> {
            if (x.getRequestURI().getPath().equals("/")) {
                x.getResponseHeaders().add("Location", "/status");
                x.sendResponseHeaders(302, -1);
            } else {
                x.sendResponseHeaders(404, -1);
            }
            x.close();
        });
    }

    public StatusHttpServer start() {
        server.start();
        return this;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * Who may read these pages, in one line: what the controller logs at start and the status page shows.
     */
    public String access() {
        if (tenants.authenticating()) {
            return "a tenant's bearer token required (as for gRPC); tenants see their own applications, admins all";
        }
        InetAddress host = address().getAddress();
        return host.isLoopbackAddress() ? "loopback only, no authentication (no tokens configured)"
                : "open to anyone who can reach " + address().getHostString() + ":" + address().getPort()
                        + " (no tokens configured)";
    }

    private interface Body {
        String get(HttpExchange x, String tenant) throws IOException;
    }

    private void serve(HttpExchange x, String type, Body body) throws IOException {
        try (x) {
            String method = x.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                x.getResponseHeaders().add("Allow", "GET, HEAD");
                x.sendResponseHeaders(405, -1);
                return;
            }
            Optional<String> tenant = authenticate(x);
            if (tenant.isEmpty()) {
                controller.metrics().requestsRejected.increment();
                byte[] why = ("a tenant's bearer token is required: send 'Authorization: Bearer TOKEN'\n")
                        .getBytes(StandardCharsets.UTF_8);
                x.getResponseHeaders().add("WWW-Authenticate", "Bearer realm=\"saba\"");
                x.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
                x.sendResponseHeaders(401, method.equals("HEAD") ? -1 : why.length);
                if (!method.equals("HEAD")) {
                    try (OutputStream o = x.getResponseBody()) {
                        o.write(why);
                    }
                }
                return;
            }
            byte[] bytes = body.get(x, tenant.get()).getBytes(StandardCharsets.UTF_8);
            x.getResponseHeaders().add("Content-Type", type);
            x.getResponseHeaders().add("Cache-Control", "no-store");
            x.sendResponseHeaders(200, method.equals("HEAD") ? -1 : bytes.length);
            if (!method.equals("HEAD")) {
                try (OutputStream o = x.getResponseBody()) {
                    o.write(bytes);
                }
            }
        }
    }

    /** The caller's tenant ("" without tokens), or empty when tokens are configured and it sent none that fits. */
    private Optional<String> authenticate(HttpExchange x) {
        if (!tenants.authenticating()) {
            return Optional.of(Tenants.NONE);
        }
        String auth = x.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return Optional.empty();
        }
        return tenants.tenantOf(auth.substring(7).trim());
    }

    private StatusView statusOf(String tenant) {
        return tenants.visibleTo(tenant, controller.status(false));
    }

    private String statusJson(HttpExchange x, String tenant) throws IOException {
        return json.writeValueAsString(StatusJson.of(statusOf(tenant), access()));
    }

    /** The dashboard for the filter and page in the URL; {@code part=live} asks for the part its script swaps. */
    private String dashboard(HttpExchange x, String tenant) {
        DashboardQuery q = DashboardQuery.parse(x.getRequestURI().getRawQuery());
        DashboardPage page = new DashboardPage(statusOf(tenant), access(), q, Instant.now(), grpcAddress);
        return "live".equals(partOf(x.getRequestURI().getRawQuery())) ? page.live() : page.page();
    }

    private static String partOf(String rawQuery) {
        if (rawQuery != null) {
            for (String kv : rawQuery.split("&")) {
                if (kv.startsWith("part=")) {
                    return kv.substring(5);
                }
            }
        }
        return "";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
