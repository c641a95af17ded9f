package io.saba.controller.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The dashboard's URL parameters, its paging, and the numbers it shows people. */
class DashboardQueryTest {
    @Test
    void parametersHaveDefaultsAndBounds() {
        DashboardQuery none = DashboardQuery.parse(null);
        assertEquals(new DashboardQuery("", DashboardQuery.Sort.PORT, 1, 1, 50), none);
        DashboardQuery q = DashboardQuery.parse("q=app-1+s0%3A7&sort=slowdown&page=3&apps-page=0&per-page=5000");
        assertEquals("app-1 s0:7", q.filter());
        assertEquals(List.of("app-1", "s0:7"), q.words());
        assertEquals(DashboardQuery.Sort.SLOWDOWN, q.sort());
        assertEquals(3, q.portPage());
        assertEquals(1, q.appPage(), "not a page: the first");
        assertEquals(DashboardQuery.MAX_PER_PAGE, q.perPage(), "at most this many per page");
        assertEquals(DashboardQuery.Sort.PORT, DashboardQuery.parse("sort=nonsense").sort());
    }

    @Test
    void linksKeepTheViewAndLeaveDefaultsOut() {
        DashboardQuery q = DashboardQuery.parse("q=a%26b&sort=apps&page=2");
        assertEquals("?q=a%26b&sort=apps&page=3", q.with("page", 3));
        assertEquals("?q=a%26b&sort=apps", q.with("page", null));
        assertEquals("?apps-page=2", DashboardQuery.parse("").with("apps-page", 2));
    }

    @Test
    void pagesCoverTheMatchesAndAskingBeyondGivesTheLast() {
        DashboardQuery q = DashboardQuery.parse("per-page=50");
        List<Integer> items = IntStream.range(0, 120).boxed().toList();
        DashboardQuery.Page<Integer> p2 = q.page(items, 2);
        assertEquals(50, p2.from());
        assertEquals(items.subList(50, 100), p2.items());
        assertEquals(3, p2.pages());
        DashboardQuery.Page<Integer> beyond = q.page(items, 9);
        assertEquals(3, beyond.page());
        assertEquals(items.subList(100, 120), beyond.items());
        DashboardQuery.Page<Integer> empty = q.page(List.of(), 1);
        assertEquals(1, empty.pages());
        assertEquals(0, empty.matched());
    }

    @Test
    void numbersForPeople() {
        assertEquals("10.0 %", Human.percent(0.09999999999999998));
        assertEquals("45.0 %", Human.percent(0.45));
        assertEquals("1.23×", Human.slowdown(1.2345));
        assertEquals("–", Human.slowdown(Double.NaN));
        assertEquals("10,000", Human.count(10_000));
        assertEquals("1 port", Human.count(1, "port", "ports"));
        assertEquals("850 ms", Human.duration(Duration.ofMillis(850)));
        assertEquals("12.3 s", Human.duration(Duration.ofMillis(12_340)));
        assertEquals("30 s", Human.duration(Duration.ofSeconds(30)));
        assertEquals("4 min 5 s", Human.duration(Duration.ofSeconds(245)));
        assertEquals("2 h 3 min", Human.duration(Duration.ofMinutes(123)));
        Instant t = Instant.parse("2026-11-24T19:59:13Z");
        assertEquals("2026-11-24 19:59:13 UTC (4.2 s ago)", Human.when(t, t.plusMillis(4_200)));
    }
}
