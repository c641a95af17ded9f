package io.saba.controller.http;

import io.saba.controller.GroupView;
import io.saba.controller.StatusView;
import io.saba.controller.StatusView.PortShare;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricStatus;
import io.saba.controller.fabric.PortRetry;
import io.saba.controller.fabric.PushOutcome;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.controller.signals.AppSignals;
import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.estimate.ModelDrift;
import io.saba.core.estimate.SensitivityEstimate;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code /status}: the dashboard, rendered here as one HTML page that works without scripts (the filter is a form,
 * the pages are links) and that its script keeps live by fetching {@code /status?…&part=live} (the part below the
 * filter) every two seconds. What it shows: the fabric (the last push and its result, ports being retried, drift
 * and how the backend looks for it), the applications (level, predicted slowdown, weight on each port), and per
 * port a stacked bar of its queue weights, each queue split into its applications and labelled with its levels.
 *
 * <p>Ports and applications are filtered and paged here, so the browser lays out one page whatever the fabric's
 * size. Numbers are for people ({@link Human}); {@code /status.json} keeps them raw.
 */
final class DashboardPage {
    /** Shares of a port's ports listed per application on the page; the filter finds the rest. */
    static final int SHARES_SHOWN = 8;
    /** Failures, retries and drifted ports listed; the filter words "retrying" and "drifted" find them all. */
    static final int PROBLEMS_SHOWN = 50;
    private static final String CSS = resource("dashboard.css");
    private static final String SCRIPT = resource("dashboard.js");

    private final StatusView v;
    private final String access;
    private final String grpc;
    private final DashboardQuery q;
    private final Instant now;
    private final Map<String, AppView> appById = new HashMap<>();
    private final Map<String, List<PortShare>> shares;
    private final StringBuilder h = new StringBuilder(16_384);

    /** @param grpc the address clients reach this controller at (for the hint an empty page gives), or null */
    DashboardPage(StatusView v, String access, DashboardQuery q, Instant now, String grpc) {
        this.grpc = grpc == null ? "HOST:PORT" : grpc;
        this.v = v;
        this.access = access;
        this.q = q;
        this.now = now;
        v.apps().forEach(a -> appById.put(a.appId(), a));
        this.shares = v.sharesOfApps();
    }

    /** The whole page: head, the filter form, the live part, the script. */
    String page() {
        h.append("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
                .append("<title>Saba controller</title><style>").append(CSS).append("</style></head><body>")
                .append("<header><h1>Saba controller</h1><span id=\"state\" class=\"state\">")
                .append("rendered ").append(esc(Human.time(now)))
                .append("</span><button id=\"pause\" type=\"button\" hidden>pause</button>")
                .append("<nav><a href=\"/status.json\">JSON</a> · <a href=\"/metrics\">metrics</a></nav></header>")
                .append("<form id=\"filter\" method=\"get\" action=\"/status\">")
                .append("<input id=\"q\" name=\"q\" type=\"search\" autocomplete=\"off\" value=\"")
                .append(esc(q.filter())).append("\" placeholder=\"filter: port, application, workload, user, ")
                .append("level3, drifted, retrying (all words must match)\" aria-label=\"filter\">")
                .append("<label>ports by <select id=\"sort\" name=\"sort\">");
        for (DashboardQuery.Sort s : DashboardQuery.Sort.values()) {
            h.append("<option value=\"").append(s.param).append('"').append(s == q.sort() ? " selected" : "")
                    .append('>').append(switch (s) {
                        case PORT -> "name";
                        case SLOWDOWN -> "predicted slowdown";
                        case APPS -> "applications";
                    }).append("</option>");
        }
        h.append("</select></label>");
        if (q.perPage() != DashboardQuery.DEFAULT_PER_PAGE) {
            h.append("<input type=\"hidden\" name=\"per-page\" value=\"").append(q.perPage()).append("\">");
        }
        h.append("<noscript><button>filter</button> (without scripts the page does not update itself)</noscript>")
                .append("</form><div id=\"live\">");
        live();
        return h.append("</div><script>").append(SCRIPT).append("</script></body></html>").toString();
    }

    /** The part the script replaces on every update. */
    String live() {
        h.append("<div class=\"view\" data-filter=\"").append(esc(q.filter())).append("\" data-version=\"")
                .append(v.version()).append("\">");
        summary();
        fabric(v.fabric());
        if (v.group() != null) {
            group(v.group());
        }
        applications();
        ports();
        return h.append("</div>").toString();
    }

    private void summary() {
        long unrouted = v.unrouted();
        h.append("<section class=\"summary\"><p class=\"cards\">")
                .append(card(Human.count(v.apps().size()), "applications"))
                .append(card(Human.count(v.connections()), "connections"
                        + (unrouted > 0 ? " (" + Human.count(unrouted) + " waiting for a route)" : "")))
                .append(card(Human.count(v.ports().size()), v.ports().size() == 1 ? "port configured"
                        : "ports configured"))
                .append(card(Human.count(v.version()), "allocation version"))
                .append(card(esc(v.fabric().backend()), "backend"))
                .append("</p><p>sensitivity table: ").append(esc(v.table())).append(" · models: ")
                .append(esc(v.sensitivity().label())).append("</p><p>access: ")
                .append(esc(access)).append("</p></section>");
    }

    /** " (3 rejected: REASON)": connections the controller refused, with the latest reason; "" when none. */
    private static String rejectedText(io.saba.controller.ConnectionRejections r) {
        return r == null ? "" : " <span class=\"bad\">(" + Human.count(r.count()) + " rejected: "
                + esc(r.lastReason()) + ")</span>";
    }

    private static String card(String value, String what) {
        return "<span class=\"card\"><b>" + value + "</b> " + esc(what) + "</span>";
    }

    private void fabric(FabricStatus f) {
        h.append("<section id=\"fabric\"><h2>Fabric</h2><p class=\"last-push\">last push: ");
        PushOutcome push = f.lastPush();
        if (push == null) {
            h.append("none yet (no application has crossed a port)");
        } else {
            h.append(esc(Human.when(push.at(), now))).append(", allocation version ").append(push.version())
                    .append(": ").append(Human.count(push.configured(), "port", "ports")).append(" configured, ")
                    .append(Human.count(push.released())).append(" released, ")
                    .append(push.ok() ? "<span class=\"ok\">no failure</span>"
                            : "<span class=\"bad\">" + Human.count(push.failed().size()) + " failed</span>");
        }
        h.append("</p>");
        if (push != null && !push.ok()) {
            problems("failed-push", "Failed in the last push (they keep their previous configuration)",
                    push.failed());
        }
        if (!f.retrying().isEmpty()) {
            Map<PortId, String> retrying = new TreeMap<>();
            f.retrying().forEach((p, r) -> retrying.put(p, retryText(r)));
            problems("retrying", "Being retried (1 s, doubling to 60 s)", retrying);
        }
        DriftCheck check = f.driftCheck();
        h.append("<p class=\"drift-check\">drift: ");
        if (check == null) {
            h.append("this backend does not read its ports back, so drift is not looked for");
        } else {
            h.append(check.every().isZero() ? "the backend can read its ports back, but no periodic check is"
                    + " configured" : "checked every " + Human.duration(check.every()))
                    .append(check.repairs() ? ", repaired where found" : "")
                    .append(check.last() == null ? "; not checked yet"
                            : "; last check " + esc(Human.when(check.last(), now)) + " read "
                            + Human.count(check.ports(), "port", "ports"));
            if (check.last() != null || !f.drift().isEmpty()) {
                h.append(f.drift().isEmpty() ? ": <span class=\"ok\">none drifted</span>"
                        : ": <span class=\"bad\">" + Human.count(f.drift().size()) + " drifted</span>");
            }
        }
        h.append("</p>");
        if (!f.drift().isEmpty()) {
            problems("drift", "Drift: ports another agent rewrote since the backend last wrote them", f.drift());
        }
        if (!f.agents().isEmpty()) {
            AgentsTable.render(h, f.agents());
        }
        h.append("</section>");
    }

    private String retryText(PortRetry r) {
        return Human.count(r.attempts(), "failure", "failures") + " in a row, the last "
                + Human.when(r.lastFailed(), now) + ": " + r.reason();
    }

    /** A table of ports with what is wrong with each, the first {@link #PROBLEMS_SHOWN} of them. */
    private void problems(String id, String title, Map<PortId, String> what) {
        h.append("<h3>").append(esc(title)).append("</h3><table id=\"").append(id)
                .append("\" class=\"problems\"><tr><th>port</th><th>what</th></tr>");
        int n = 0;
        for (Map.Entry<PortId, String> e : new TreeMap<>(what).entrySet()) {
            if (n++ == PROBLEMS_SHOWN) {
                h.append("<tr><td colspan=\"2\">… and ").append(Human.count(what.size() - PROBLEMS_SHOWN))
                        .append(" more</td></tr>");
                break;
            }
            h.append("<tr><td>").append(esc(e.getKey())).append("</td><td>").append(esc(e.getValue()))
                    .append("</td></tr>");
        }
        h.append("</table>");
    }

    private void group(GroupView g) {
        h.append("<section id=\"group\"><h2>Controller group</h2><p>member ").append(esc(g.member()))
                .append(" · leader ").append(esc(g.leader())).append(g.leads() ? " (this member)" : "")
                .append(" · members ").append(esc(g.members())).append(" · session timeout ")
                .append(g.sessionTimeoutMillis()).append(" ms</p><p>programs ").append(esc(g.programming()))
                .append("</p><p>switches per member ").append(esc(g.shares()))
                .append(String.format(Locale.ROOT, " · largest share / fair share %.2f", g.imbalance()))
                .append("</p>");
        if (!g.hostTargets().isEmpty()) {
            // a host's agent is served by the member holding the host: the others list it here, not as missing
            h.append("<p>hosts' NICs programmed here ").append(esc(g.hostsProgramming())).append(" · host → member ")
                    .append(esc(g.hostTargets())).append("</p>");
        }
        h.append("</section>");
    }

    // ---- applications ----

    private void applications() {
        List<String> words = q.words();
        List<AppView> matching = new ArrayList<>();
        for (AppView a : v.apps()) {
            if (appMatches(a, words)) {
                matching.add(a);
            }
        }
        DashboardQuery.Page<AppView> page = q.page(matching, q.appPage());
        h.append("<section id=\"apps\"><h2>Applications</h2>");
        if (v.apps().isEmpty()) {
            h.append("<p class=\"hint\">No application has registered yet. A Spark job joins with <code>--conf ")
                    .append("spark.saba.controller.address=").append(esc(grpc)).append("</code> beside Saba's shuffle")
                    .append(" manager, a Flink job with <code>saba.controller.address: ").append(esc(grpc))
                    .append("</code> in its configuration (the README shows both).</p>");
        }
        counted(page, v.apps().size(), "application", "applications");
        pager(page, "apps-page");
        h.append("<table class=\"apps\"><tr><th>app</th><th>workload</th><th>framework</th><th>user</th>")
                .append("<th>tenant</th><th>level</th><th title=\"its workload's curve at its smallest share:")
                .append(" the highest over its ports\">predicted slowdown</th><th>connections</th>")
                .append("<th>lease left</th><th>work signals</th><th>sensitivity model</th>")
                .append("<th>weight on its ports (smallest first)</th></tr>");
        for (AppView a : page.items()) {
            List<PortShare> mine = shares.getOrDefault(a.appId(), List.of());
            h.append("<tr data-app=\"").append(esc(a.appId())).append("\"><td>").append(esc(a.appId()))
                    .append("</td><td>").append(esc(a.workload()))
                    .append(a.workloadKnown() ? "" : " (default model)").append("</td><td>")
                    .append(esc(a.framework())).append("</td><td>").append(esc(a.user())).append("</td><td>")
                    .append(esc(a.tenant())).append("</td><td>").append(levelChip(a.level()))
                    .append("</td><td class=\"slowdown\">").append(Human.slowdown(StatusView.predictedSlowdown(mine)))
                    .append("</td><td>").append(Human.count(a.connections()))
                    .append(a.unrouted() > 0 ? " (" + Human.count(a.unrouted()) + " waiting for a route)" : "")
                    .append(rejectedText(v.rejected().get(a.appId())))
                    .append("</td><td>").append(Human.duration(Duration.ofMillis(a.leaseRemainingMillis())))
                    .append("</td><td>").append(signalsCell(v.signals().get(a.appId()))).append("</td><td>")
                    .append(modelCell(a, v.estimateOf(a))).append("</td><td>");
            appShares(mine);
            h.append("</td></tr>");
        }
        h.append("</table></section>");
    }

    private boolean appMatches(AppView a, List<String> words) {
        List<String> own = List.of(a.appId(), a.workload(), a.framework(), a.user(), a.tenant(), "level" + a.level());
        for (String w : words) {
            if (!DashboardQuery.anyContains(w, own) && !crossesPortNamed(a, w)) {
                return false;
            }
        }
        return true;
    }

    private boolean crossesPortNamed(AppView a, String word) {
        for (PortShare s : shares.getOrDefault(a.appId(), List.of())) {
            if (s.port().toString().toLowerCase(Locale.ROOT).contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** "s0:3 22.5 % (1.40×)", smallest share first: the port that sets the application's pace leads. */
    private void appShares(List<PortShare> mine) {
        List<PortShare> sorted = new ArrayList<>(mine);
        sorted.sort(Comparator.comparingDouble(PortShare::weight).thenComparing(PortShare::port));
        h.append("<ul class=\"shares\">");
        for (PortShare s : sorted.subList(0, Math.min(SHARES_SHOWN, sorted.size()))) {
            h.append("<li data-port=\"").append(esc(s.port())).append("\">").append(esc(s.port())).append(' ')
                    .append(Human.percent(s.weight())).append(" (").append(Human.slowdown(s.predictedSlowdown()))
                    .append(")</li>");
        }
        if (sorted.size() > SHARES_SHOWN) {
            h.append("<li>… and ").append(Human.count(sorted.size() - SHARES_SHOWN))
                    .append(" more (filter by the application's id)</li>");
        }
        h.append("</ul>");
    }

    /** "12 units, network wait 8.1 % of run time" (raw; the JSON has the rest). */
    private static String signalsCell(AppSignals s) {
        if (s == null) {
            return "";
        }
        double share = s.networkWaitShare();
        return s.reported() + " units" + (Double.isNaN(share) ? ""
                : String.format(Locale.ROOT, ", network wait %.1f %% of run time", 100 * share));
    }

    /**
     * "blended · estimate 1.32× ± 0.05 at 50 % (12 units, link), table 1.80× · DRIFT −27 % at 25 %": the model's
     * source, then (once its workload reported units) the estimate, the signal it rests on (link bytes, the engine's
     * wait, or both), and the table at the share where they differ most.
     */
    private static String modelCell(AppView a, WorkloadEstimateView w) {
        StringBuilder c = new StringBuilder(esc(a.modelSource().label()));
        SensitivityEstimate e = w == null ? null : w.estimate();
        ModelDrift.Deviation d = w == null ? null : w.deviation();
        if (e != null) {
            double share = d != null ? d.share() : 0.5;
            double error = e.slowdownError(share);
            c.append(" · estimate ").append(Human.slowdown(e.slowdown(share)))
                    .append(Double.isNaN(error) ? "" : String.format(Locale.ROOT, " ± %.2f", error))
                    .append(" at ").append(Human.percent(share)).append(" (")
                    .append(Human.count(e.observations(), "unit", "units")).append(", ").append(e.signal())
                    .append(')');
            if (d != null) {
                c.append(", table ").append(Human.slowdown(d.table()));
            }
        }
        if (d != null && w.drifting()) {
            c.append(String.format(Locale.ROOT, " · <b class=\"bad\">DRIFT %+.0f %% at %s</b>", 100 * d.relative(),
                    Human.percent(d.share())));
        }
        return c.toString();
    }

    // ---- ports ----

    private void ports() {
        List<String> words = q.words();
        List<PortAllocation> matching = new ArrayList<>();
        for (PortAllocation p : v.ports().values()) {
            if (portMatches(p, words)) {
                matching.add(p);
            }
        }
        matching.sort(switch (q.sort()) {
            case PORT -> Comparator.comparing(PortAllocation::port);
            case SLOWDOWN -> Comparator.comparingDouble((PortAllocation p) -> Double.isNaN(p.predictedSlowdown())
                    ? Double.NEGATIVE_INFINITY : p.predictedSlowdown()).reversed()
                    .thenComparing(PortAllocation::port);
            case APPS -> Comparator.comparingInt((PortAllocation p) -> p.appWeights().size()).reversed()
                    .thenComparing(PortAllocation::port);
        });
        DashboardQuery.Page<PortAllocation> page = q.page(matching, q.portPage());
        h.append("<section id=\"ports\"><h2>Ports</h2>");
        counted(page, v.ports().size(), "port", "ports");
        pager(page, "page");
        h.append("<div class=\"port-list\">");
        for (PortAllocation p : page.items()) {
            new PortBar(h, p, appById).render(v.fabric().drift().containsKey(p.port()),
                    v.fabric().retrying().containsKey(p.port()));
        }
        h.append("</div>");
        if (page.pages() > 1) {
            pager(page, "page");
        }
        h.append("</section>");
    }

    private boolean portMatches(PortAllocation p, List<String> words) {
        if (words.isEmpty()) {
            return true;
        }
        List<String> texts = new ArrayList<>();
        texts.add(p.port().toString());
        p.appWeights().keySet().forEach(id -> {
            texts.add(id);
            AppView a = appById.get(id);
            if (a != null) {
                texts.add(a.workload());
            }
        });
        p.queueOfLevel().keySet().forEach(l -> texts.add("level" + l));
        if (v.fabric().drift().containsKey(p.port())) {
            texts.add("drifted");
        }
        if (v.fabric().retrying().containsKey(p.port())) {
            texts.add("retrying");
        }
        for (String w : words) {
            if (!DashboardQuery.anyContains(w, texts)) {
                return false;
            }
        }
        return true;
    }

    /** A level's coloured chip, "L3": the colour its queues have in every port's bar. */
    static String levelChip(int level) {
        return "<b class=\"chip lv" + level % 16 + "\">L" + level + "</b>";
    }

    // ---- paging ----

    private void counted(DashboardQuery.Page<?> page, int total, String singular, String plural) {
        h.append("<p class=\"count\">");
        if (page.matched() == 0) {
            h.append(q.filter().isEmpty() ? "no " + plural : "none of the " + Human.count(total, singular, plural)
                    + " matches the filter");
        } else {
            h.append("showing ").append(Human.count(page.from() + 1)).append('–')
                    .append(Human.count(page.from() + page.items().size())).append(" of ")
                    .append(Human.count(page.matched())).append(q.filter().isEmpty() ? " " + plural
                            : " matching (" + Human.count(total) + " in all)");
        }
        h.append("</p>");
    }

    /** Links to the first, previous, next and last pages (the script follows them without reloading). */
    private void pager(DashboardQuery.Page<?> page, String param) {
        if (page.pages() <= 1) {
            return;
        }
        h.append("<p class=\"pager\">");
        link(param, 1, "« first", page.page() > 1);
        link(param, page.page() - 1, "‹ previous", page.page() > 1);
        h.append(" page ").append(Human.count(page.page())).append(" of ").append(Human.count(page.pages()))
                .append(' ');
        link(param, page.page() + 1, "next ›", page.page() < page.pages());
        link(param, page.pages(), "last »", page.page() < page.pages());
        h.append("</p>");
    }

    private void link(String param, int page, String label, boolean enabled) {
        if (enabled) {
            h.append("<a data-nav href=\"").append(esc(q.with(param, page))).append("\">").append(label)
                    .append("</a> ");
        } else {
            h.append("<span class=\"off\">").append(label).append("</span> ");
        }
    }

    static String esc(Object o) {
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

    private static String resource(String name) {
        try (InputStream in = DashboardPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
