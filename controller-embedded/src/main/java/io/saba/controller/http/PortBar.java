package io.saba.controller.http;

import static io.saba.controller.http.DashboardPage.esc;
import static io.saba.controller.http.DashboardPage.levelChip;

import io.saba.controller.state.AppView;
import io.saba.core.alloc.PortAllocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One port on the dashboard: its name and totals, a stacked bar as wide as the link with one segment per queue (as
 * wide as the queue's weight, coloured by its level, split into the applications in it and labelled with each one's
 * share), and the bar's legend in words. Applications another tenant may not see, and the traffic of queue 0, are
 * the rest of their queue's segment.
 */
final class PortBar {
    private final StringBuilder h;
    private final PortAllocation p;
    private final Map<String, AppView> appById;

    PortBar(StringBuilder h, PortAllocation p, Map<String, AppView> appById) {
        this.h = h;
        this.p = p;
        this.appById = appById;
    }

    /** Appends the port, marked when the backend found it drifted or is retrying its push. */
    void render(boolean drifted, boolean retrying) {
        double[] weights = p.queueWeights();
        Map<Integer, List<Integer>> levelsOfQueue = new TreeMap<>();
        p.queueOfLevel().forEach((level, queue) -> levelsOfQueue.computeIfAbsent(queue, k -> new ArrayList<>())
                .add(level));
        Map<Integer, List<String>> appsOfQueue = new TreeMap<>();
        for (String id : new TreeMap<>(p.appWeights()).keySet()) {
            AppView a = appById.get(id);
            Integer queue = a == null ? null : p.queueOfLevel().get(a.level());
            if (queue != null) {
                appsOfQueue.computeIfAbsent(queue, k -> new ArrayList<>()).add(id);
            }
        }
        h.append("<div class=\"port\" data-port=\"").append(esc(p.port())).append("\"><div class=\"port-head\">")
                .append("<span class=\"name\">").append(esc(p.port())).append("</span> <span class=\"meta\">")
                .append(Human.count(p.appWeights().size(), "application", "applications"))
                .append(" · predicted slowdowns, summed: ").append(Human.sum(p.predictedSlowdown()))
                .append("</span>").append(drifted ? " <span class=\"badge bad\">drifted</span>" : "")
                .append(retrying ? " <span class=\"badge bad\">retrying</span>" : "").append("</div>");
        h.append("<div class=\"bar\">");
        for (int queue = 0; queue < weights.length; queue++) {
            if (weights[queue] > 0) {
                segment(queue, weights[queue], levelsOfQueue.getOrDefault(queue, List.of()),
                        appsOfQueue.getOrDefault(queue, List.of()));
            }
        }
        h.append("</div><ul class=\"legend\">");
        for (int queue = 0; queue < weights.length; queue++) {
            if (weights[queue] > 0) {
                legend(queue, weights[queue], levelsOfQueue.getOrDefault(queue, List.of()),
                        appsOfQueue.getOrDefault(queue, List.of()));
            }
        }
        h.append("</ul></div>");
    }

    /** One queue of the bar, as wide as its weight, split into its applications' weights. */
    private void segment(int queue, double weight, List<Integer> levels, List<String> apps) {
        h.append("<div class=\"q lv").append(levels.isEmpty() ? 0 : levels.get(0) % 16)
                .append("\" data-queue=\"").append(queue).append("\" data-weight=\"").append(weight)
                .append("\" style=\"width:").append(cssPercent(weight)).append("\" title=\"")
                .append(esc(queueTitle(queue, weight, levels))).append("\">");
        double shown = 0;
        for (String id : apps) {
            double w = p.appWeights().get(id);
            shown += w;
            h.append("<span class=\"app\" data-app=\"").append(esc(id)).append("\" style=\"width:")
                    .append(cssPercent(w / weight)).append("\" title=\"").append(esc(id)).append(' ')
                    .append(Human.percent(w)).append(" of the link\">").append(esc(id)).append(' ')
                    .append(Human.percent(w)).append("</span>");
        }
        double rest = weight - shown;
        if (rest > 1e-9) {
            String label = queue == 0 ? "not Saba's " + Human.percent(rest) : "others " + Human.percent(rest);
            h.append("<span class=\"app rest\" style=\"width:").append(cssPercent(rest / weight))
                    .append("\" title=\"").append(esc(label)).append("\">").append(esc(label)).append("</span>");
        }
        h.append("</div>");
    }

    private void legend(int queue, double weight, List<Integer> levels, List<String> apps) {
        h.append("<li data-queue=\"").append(queue).append("\">");
        for (int level : levels) {
            h.append(levelChip(level)).append(' ');
        }
        h.append(esc(queueTitle(queue, weight, levels)));
        if (!apps.isEmpty()) {
            h.append(": ");
            for (int i = 0; i < apps.size(); i++) {
                String id = apps.get(i);
                h.append(i > 0 ? ", " : "").append(esc(id)).append(' ').append(Human.percent(p.appWeights().get(id)));
            }
        }
        h.append("</li>");
    }

    private static String queueTitle(int queue, double weight, List<Integer> levels) {
        StringBuilder t = new StringBuilder("queue ").append(queue);
        if (levels.size() == 1) {
            t.append(" · level ").append(levels.get(0));
        } else if (levels.size() > 1) {
            t.append(" · levels ");
            for (int i = 0; i < levels.size(); i++) {
                t.append(i > 0 ? "+" : "").append(levels.get(i));
            }
        }
        if (levels.contains(0)) {
            t.append(" (not Saba's traffic)");
        }
        return t.append(" · ").append(Human.percent(weight)).toString();
    }

    /** A CSS width: enough digits that bars add up, none that make people read raw doubles. */
    private static String cssPercent(double fraction) {
        return String.format(Locale.ROOT, "%.3f%%", 100 * fraction);
    }
}
