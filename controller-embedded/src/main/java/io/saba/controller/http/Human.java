package io.saba.controller.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Numbers and times as the dashboard shows them to people: shares of a link as percentages with one decimal,
 * slowdowns as factors with two, counts with thousands separators, instants in UTC and how long ago. The JSON
 * keeps them raw.
 */
final class Human {
    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Human() {
    }

    /** A fraction of a link: 0.09999999999999998 → "10.0 %". */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
    }

    /** A sum of slowdowns, a plain number (a sum of factors is not a factor): 4.4199 → "4.42"; "–" when unknown. */
    static String sum(double slowdowns) {
        return Double.isNaN(slowdowns) ? "–" : String.format(Locale.ROOT, "%.2f", slowdowns);
    }

    /** A predicted slowdown: 1.2345 → "1.23×"; "–" when unknown. */
    static String slowdown(double factor) {
        return Double.isNaN(factor) ? "–" : String.format(Locale.ROOT, "%.2f×", factor);
    }

    /** A count: 10000 → "10,000". */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** "5 applications", "1 application". */
    static String count(long n, String singular, String plural) {
        return count(n) + " " + (n == 1 ? singular : plural);
    }

    /** A duration: "850 ms", "12.3 s", "30 s", "4 min 5 s", "2 h 3 min". */
    static String duration(Duration d) {
        long ms = Math.max(0, d.toMillis());
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return ms % 1000 == 0 ? ms / 1000 + " s" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 3600) {
            return s / 60 + " min " + s % 60 + " s";
        }
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }

    /** "2026-11-24 19:59:13 UTC". */
    static String time(Instant at) {
        return UTC.format(at);
    }

    /** "2026-11-24 19:59:13 UTC (4.2 s ago)". */
    static String when(Instant at, Instant now) {
        return time(at) + " (" + duration(Duration.between(at, now)) + " ago)";
    }
}
