package io.saba.controller.http;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the dashboard was asked to show, from its URL: a filter (words that must all match), how ports are sorted,
 * which page of ports and of applications, and how many per page. The server filters and pages, so a browser
 * only ever receives and lays out one page, however many ports the fabric has.
 *
 * @param filter   what the operator typed; empty: everything
 * @param sort     the order of the ports
 * @param portPage 1-based page of the matching ports
 * @param appPage  1-based page of the matching applications
 * @param perPage  ports (and applications) per page
 */
record DashboardQuery(String filter, Sort sort, int portPage, int appPage, int perPage) {
    static final int DEFAULT_PER_PAGE = 50;
    static final int MAX_PER_PAGE = 1000;

    /** Orders of the ports: by name, worst predicted slowdown first, most applications first. */
    enum Sort {
        PORT("port"), SLOWDOWN("slowdown"), APPS("apps");

        final String param;

        Sort(String param) {
            this.param = param;
        }

        static Sort of(String param) {
            for (Sort s : values()) {
                if (s.param.equals(param)) {
                    return s;
                }
            }
            return PORT;
        }
    }

    /** One page of what matched: its items, which page of how many, how many matched, where the page starts. */
    record Page<T>(List<T> items, int page, int pages, int matched, int from) {
    }

    /** From the URL's raw query (malformed escapes never get here: the JDK's server answers them 400 itself). */
    static DashboardQuery parse(String rawQuery) {
        Map<String, String> p = params(rawQuery);
        return new DashboardQuery(p.getOrDefault("q", "").strip(), Sort.of(p.get("sort")),
                positive(p.get("page"), 1, Integer.MAX_VALUE), positive(p.get("apps-page"), 1, Integer.MAX_VALUE),
                positive(p.get("per-page"), DEFAULT_PER_PAGE, MAX_PER_PAGE));
    }

    /** Every word of the filter, lower case. */
    List<String> words() {
        List<String> out = new ArrayList<>();
        for (String w : filter.toLowerCase(Locale.ROOT).split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    /** True when the word is in one of these texts (any case). */
    static boolean anyContains(String word, Collection<String> texts) {
        for (String t : texts) {
            if (t != null && t.toLowerCase(Locale.ROOT).contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** The given page of the matching items (the last page when asked beyond it). */
    <T> Page<T> page(List<T> matching, int asked) {
        int pages = Math.max(1, (matching.size() + perPage - 1) / perPage);
        int page = Math.min(asked, pages);
        int from = (page - 1) * perPage;
        return new Page<>(matching.subList(from, Math.min(matching.size(), from + perPage)), page, pages,
                matching.size(), from);
    }

    /** This query's URL parameters with some replaced ({@code null} removes one), defaults left out. */
    String with(String key, Object value) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("q", filter.isEmpty() ? null : filter);
        p.put("sort", sort == Sort.PORT ? null : sort.param);
        p.put("page", portPage == 1 ? null : String.valueOf(portPage));
        p.put("apps-page", appPage == 1 ? null : String.valueOf(appPage));
        p.put("per-page", perPage == DEFAULT_PER_PAGE ? null : String.valueOf(perPage));
        p.put(key, value == null ? null : String.valueOf(value));
        StringBuilder b = new StringBuilder("?");
        p.forEach((k, v) -> {
            if (v != null) {
                b.append(b.length() > 1 ? "&" : "").append(k).append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        });
        return b.toString();
    }

    private static Map<String, String> params(String rawQuery) {
        Map<String, String> out = new LinkedHashMap<>();
        if (rawQuery == null) {
            return out;
        }
        for (String kv : rawQuery.split("&")) {
            int eq = kv.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            out.putIfAbsent(k, v);
        }
        return out;
    }

    private static int positive(String text, int otherwise, int max) {
        try {
            int n = Integer.parseInt(text);
            return n >= 1 ? Math.min(n, max) : otherwise;
        } catch (NumberFormatException | NullPointerException e) {
            return otherwise;
        }
    }
}
