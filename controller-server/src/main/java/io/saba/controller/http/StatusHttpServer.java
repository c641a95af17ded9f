package io.saba.controller.http;

import io.saba.controller.GroupView;
import io.saba.controller.StatusView;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.saba.controller.ControllerApi;
import io.saba.controller.Tenants;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.signals.AppSignals;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.estimate.DriftCheck;
import io.saba.core.estimate.SensitivityEstimate;
import io.saba.core.model.SensitivityModel;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Read-only HTTP: {@code /metrics} (Prometheus text), {@code /status} (HTML) and {@code /status.json} (the same
 * data). Only GET and HEAD are served; the JDK's built-in server keeps this free of web-framework dependencies.
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
    /** Records (the work signals) with the saba.v1 message's field names: network_wait_millis, not networkWaitMillis. */
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

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
                tenant -> controller.metrics().prometheus()));
        server.createContext("/status.json", x -> serve(x, "application/json", this::statusJson));
        server.createContext("/status", x -> serve(x, "text/html; charset=utf-8", this::statusHtml));
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
        String get(String tenant) throws IOException;
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
            byte[] bytes = body.get(tenant.get()).getBytes(StandardCharsets.UTF_8);
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

    /** The status as plain maps and lists, shared by the JSON and HTML views. */
    Map<String, Object> statusModel(String tenant) {
        StatusView v = tenants.visibleTo(tenant, controller.status(false));
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("backend", v.backend());
        root.put("access", access());
        root.put("table", v.table());
        root.put("sensitivity", v.sensitivity().label());
        root.put("allocation_version", v.version());
        root.put("connections", v.connections());
        root.put("connections_unrouted", v.unrouted());
        List<Map<String, Object>> apps = new ArrayList<>();
        for (AppView a : v.apps()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("app_id", a.appId());
            m.put("workload", a.workload());
            m.put("workload_known", a.workloadKnown());
            m.put("model", model(a.modelSource().label(), v.estimateOf(a)));
            m.put("framework", a.framework());
            m.put("user", a.user());
            m.put("tenant", a.tenant());
            m.put("attempt", a.attempt());
            m.put("level", a.level());
            m.put("connections", a.connections());
            m.put("connections_unrouted", a.unrouted());
            m.put("lease_remaining_ms", a.leaseRemainingMillis());
            AppSignals signals = v.signals().get(a.appId());
            if (signals != null) {
                m.put("signals", signals(signals));
            }
            apps.add(m);
        }
        root.put("applications", apps);
        List<Map<String, Object>> ports = new ArrayList<>();
        for (PortAllocation p : v.ports().values()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("port", p.port().toString());
            m.put("queue_of_level", new TreeMap<>(p.queueOfLevel()));
            m.put("queue_weights", p.queueWeights());
            m.put("app_weights", new TreeMap<>(p.appWeights()));
            if (!Double.isNaN(p.predictedSlowdown())) {
                m.put("predicted_slowdown", p.predictedSlowdown());
            }
            ports.add(m);
        }
        root.put("ports", ports);
        Map<String, String> drift = new TreeMap<>();
        v.drift().forEach((p, what) -> drift.put(p.toString(), what));
        root.put("drift", drift);
        if (v.group() != null) {
            root.put("group", groupModel(v.group()));
        }
        return root;
    }

    /** A group member's view: who it is, who leads, the members, what it programs, the split and its imbalance. */
    private static Map<String, Object> groupModel(GroupView g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("member", g.member());
        m.put("leader", g.leader());
        m.put("leads", g.leads());
        m.put("members", g.members());
        m.put("programming", g.programming());
        m.put("shares", g.shares());
        m.put("imbalance", g.imbalance());
        m.put("targets", g.targets());
        m.put("session_timeout_ms", g.sessionTimeoutMillis());
        return m;
    }

    /** The shares the status pages give slowdowns at: those {@link DriftCheck} compares. */
    private static final double[] SHARES = DriftCheck.SHARES;

    /**
     * An application's model: where it comes from, its slowdowns at 25 and 50 %, and, once its workload reported
     * units, the online estimate with its standard error, the table's slowdowns, and drift.
     */
    private static Map<String, Object> model(String source, WorkloadEstimateView w) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", source);
        if (w == null) {
            return m; // no unit reported yet for its workload
        }
        m.put("slowdown_at", slowdowns(w.inForce()));
        SensitivityEstimate e = w.estimate();
        if (e != null) {
            Map<String, Object> est = new LinkedHashMap<>();
            est.put("network_share", e.networkShare());
            est.put("network_share_error", number(e.standardError()));
            est.put("units", e.observations());
            est.put("effective_units", e.effectiveObservations());
            est.put("network_bytes", e.bytes());
            Map<String, Object> at = new LinkedHashMap<>();
            for (double b : SHARES) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("slowdown", e.slowdown(b));
                one.put("error", number(e.slowdownError(b))); // null: one unit has no spread
                at.put(Double.toString(b), one);
            }
            est.put("at", at);
            m.put("estimate", est);
        }
        m.put("table_slowdown_at", w.table() == null ? null : slowdowns(w.table()));
        DriftCheck.Deviation d = w.deviation();
        if (d != null) {
            Map<String, Object> drift = new LinkedHashMap<>();
            drift.put("flagged", w.drifting());
            drift.put("units_contradicting_in_a_row", w.contradicting());
            drift.put("share", d.share());
            drift.put("estimated", d.estimated());
            drift.put("table", d.table());
            drift.put("deviation", d.relative());
            drift.put("allowed", d.allowed());
            m.put("drift", drift);
        }
        return m;
    }

    private static Map<String, Double> slowdowns(SensitivityModel model) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (double b : SHARES) {
            out.put(Double.toString(b), model.slowdown(b));
        }
        return out;
    }

    /** JSON has no NaN: unknown is null. */
    private static Double number(double x) {
        return Double.isNaN(x) ? null : x;
    }

    /**
     * An application's raw work signals: how many units it reported, network wait over run time summed over all of
     * them, the sum, and the latest units (what its workload's estimate learnt from them is under {@code model}).
     */
    private static Map<String, Object> signals(AppSignals s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reported", s.reported());
        double share = s.networkWaitShare();
        m.put("network_wait_share", Double.isNaN(share) ? null : share);
        m.put("total", s.total());
        m.put("latest", s.latest());
        return m;
    }

    private String statusJson(String tenant) throws IOException {
        return json.writeValueAsString(statusModel(tenant));
    }

    @SuppressWarnings("unchecked")
    private String statusHtml(String tenant) {
        Map<String, Object> s = statusModel(tenant);
        StringBuilder h = new StringBuilder(4096);
        h.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>Saba controller</title>")
                .append("<style>body{font-family:sans-serif}td,th{padding:2px 8px;text-align:left}</style>")
                .append("</head><body><h1>Saba controller</h1><p>backend ").append(esc(s.get("backend")))
                .append(" · allocation version ").append(s.get("allocation_version")).append(" · ")
                .append(s.get("connections")).append(" connections")
                .append(((Long) s.get("connections_unrouted")) > 0 ? ", " + s.get("connections_unrouted")
                        + " of them waiting for a route the fabric does not have yet" : "")
                .append(" · <a href=\"/status.json\">JSON</a> · ")
                .append("<a href=\"/metrics\">metrics</a></p><p>sensitivity table: ").append(esc(s.get("table")))
                .append(" · models: ").append(esc(s.get("sensitivity")))
                .append("</p><p>access: ").append(esc(s.get("access")))
                .append("</p><h2>Applications</h2><table><tr><th>app</th>")
                .append("<th>workload</th><th>framework</th><th>user</th><th>tenant</th><th>level</th>")
                .append("<th>connections</th><th>lease left (ms)</th><th>work signals</th>")
                .append("<th>sensitivity model</th></tr>");
        for (Map<String, Object> a : (List<Map<String, Object>>) s.get("applications")) {
            h.append("<tr><td>").append(esc(a.get("app_id"))).append("</td><td>").append(esc(a.get("workload")))
                    .append(Boolean.TRUE.equals(a.get("workload_known")) ? "" : " (default model)")
                    .append("</td><td>").append(esc(a.get("framework"))).append("</td><td>")
                    .append(esc(a.get("user"))).append("</td><td>").append(esc(a.get("tenant")))
                    .append("</td><td>").append(a.get("level")).append("</td><td>").append(a.get("connections"))
                    .append(((Integer) a.get("connections_unrouted")) > 0
                            ? " (" + a.get("connections_unrouted") + " waiting for a route)" : "")
                    .append("</td><td>").append(a.get("lease_remaining_ms")).append("</td><td>")
                    .append(signalsCell((Map<String, Object>) a.get("signals"))).append("</td><td>")
                    .append(modelCell((Map<String, Object>) a.get("model"))).append("</td></tr>");
        }
        h.append("</table><h2>Ports</h2><table><tr><th>port</th><th>level → queue</th><th>queue weights</th>")
                .append("<th>predicted slowdown (sum)</th></tr>");
        for (Map<String, Object> p : (List<Map<String, Object>>) s.get("ports")) {
            h.append("<tr><td>").append(esc(p.get("port"))).append("</td><td>")
                    .append(esc(p.get("queue_of_level"))).append("</td><td>")
                    .append(esc(Arrays.toString((double[]) p.get("queue_weights")))).append("</td><td>")
                    .append(p.containsKey("predicted_slowdown") ? String.format("%.4f", p.get("predicted_slowdown"))
                            : "").append("</td></tr>");
        }
        h.append("</table>");
        if (s.containsKey("group")) {
            Map<String, Object> g = (Map<String, Object>) s.get("group");
            h.append("<h2>Controller group</h2><p>member ").append(esc(g.get("member"))).append(" · leader ")
                    .append(esc(g.get("leader"))).append(Boolean.TRUE.equals(g.get("leads")) ? " (this member)" : "")
                    .append(" · members ").append(esc(g.get("members"))).append(" · session timeout ")
                    .append(g.get("session_timeout_ms")).append(" ms</p><p>programs ")
                    .append(esc(g.get("programming"))).append("</p><p>switches per member ")
                    .append(esc(g.get("shares"))).append(String.format(" · largest share / fair share %.2f",
                            (Double) g.get("imbalance"))).append("</p>");
        }
        Map<String, String> drift = (Map<String, String>) s.get("drift");
        if (!drift.isEmpty()) {
            h.append("<h2>Drift</h2><p>Ports another agent rewrote since the backend last wrote them.</p>")
                    .append("<table><tr><th>port</th><th>what differs</th></tr>");
            drift.forEach((p, what) -> h.append("<tr><td>").append(esc(p)).append("</td><td>").append(esc(what))
                    .append("</td></tr>"));
            h.append("</table>");
        }
        return h.append("</body></html>").toString();
    }

    /** "12 units, network wait 8.1 % of run time" (raw; the JSON has the rest). */
    private static String signalsCell(Map<String, Object> s) {
        if (s == null) {
            return "";
        }
        Object share = s.get("network_wait_share");
        return s.get("reported") + " units" + (share == null ? ""
                : String.format(", network wait %.1f %% of run time", 100 * (Double) share));
    }

    /**
     * "blended · estimate 1.32 ± 0.05 at 50 % (12 units), table 1.80 · DRIFT −27 % at 25 %": the model's source,
     * then (once units were reported) the estimate and the table at the share where they differ most.
     */
    @SuppressWarnings("unchecked")
    private static String modelCell(Map<String, Object> m) {
        StringBuilder c = new StringBuilder(esc(m.get("source")));
        Map<String, Object> est = (Map<String, Object>) m.get("estimate");
        Map<String, Object> drift = (Map<String, Object>) m.get("drift");
        if (est != null) {
            String share = drift != null ? drift.get("share").toString() : "0.5";
            Map<String, Object> at = (Map<String, Object>) ((Map<String, Object>) est.get("at")).get(share);
            Object error = at.get("error");
            c.append(String.format(" · estimate %.2f", (Double) at.get("slowdown")))
                    .append(error instanceof Double e ? String.format(" ± %.2f", e) : "")
                    .append(String.format(" at %.0f %% (%s units)", 100 * Double.parseDouble(share), est.get("units")));
            if (drift != null) {
                c.append(String.format(", table %.2f", (Double) drift.get("table")));
            }
        }
        if (drift != null && Boolean.TRUE.equals(drift.get("flagged"))) {
            c.append(String.format(" · <b>DRIFT %+.0f %% at %.0f %%</b>", 100 * (Double) drift.get("deviation"),
                    100 * (Double) drift.get("share")));
        }
        return c.toString();
    }

    private static String esc(Object o) {
        String s = String.valueOf(o);
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
