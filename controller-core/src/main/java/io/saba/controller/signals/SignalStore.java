package io.saba.controller.signals;

import io.saba.wire.WorkSignals;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The latest work signals of each application, bounded: the last {@link #KEEP} units and the sum over every unit
 * reported. Raw, for the status pages; the online estimate of each workload's sensitivity is made from the same
 * reports ({@code io.saba.controller.estimate}). Not logged or replicated: signals are kept by the controller (or
 * group member) they were sent to, lost on its restart, and gone with the application's registration.
 */
public final class SignalStore {
    /** Units kept per application: a few dozen stages cover an iterative job's recent rounds. */
    public static final int KEEP = 32;

    private final Map<String, Kept> byApp = new HashMap<>();

    private static final class Kept {
        final ArrayDeque<WorkSignals> latest = new ArrayDeque<>(KEEP);
        WorkSignals total = WorkSignals.none();
        long reported;
    }

    public synchronized void put(String appId, WorkSignals s) {
        Kept k = byApp.computeIfAbsent(appId, a -> new Kept());
        if (k.latest.size() == KEEP) {
            k.latest.removeFirst();
        }
        k.latest.addLast(s);
        k.total = k.total.plus(s);
        k.reported++;
    }

    /** Applications with signals kept. */
    public synchronized int size() {
        return byApp.size();
    }

    /** Forgets the applications that are no longer registered. */
    public synchronized void retain(Predicate<String> registered) {
        byApp.keySet().removeIf(registered.negate());
    }

    /** A copy per application that reported any signals. */
    public synchronized Map<String, AppSignals> snapshot() {
        Map<String, AppSignals> out = new HashMap<>();
        byApp.forEach((app, k) -> out.put(app, new AppSignals(List.copyOf(k.latest), k.total, k.reported)));
        return out;
    }
}
