package io.saba.core.table;

import java.util.Locale;

/**
 * How a workload's slowdown samples were taken.
 *
 * <ul>
 *   <li>{@link Kind#CAP} (the paper's method): the workload alone, its links capped at each level.</li>
 *   <li>{@link Kind#CORUN}: the workload beside a reference competitor (a second, bursty workload, restarted until
 *   the profiled run ends) on work-conserving weighted queues, the workload's class holding each level's share of
 *   Saba's capacity and the competitor's the rest. Each sample is the workload's time there over its time alone at
 *   full rate, so the curve already holds what the competitor's idle time gives back.</li>
 * </ul>
 *
 * @param kind             cap or corun
 * @param competitor       the competitor's workload key; null for cap
 * @param competitorFactor the competitor's dataset factor (its {@code --factor} at the profile's scale); null for cap
 */
public record ProfilingMethod(Kind kind, String competitor, Double competitorFactor) {
    /** The two ways the profiler takes samples. */
    public enum Kind {
        CAP, CORUN;

        /** The name the table and the command line use: "cap" or "corun". */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Parses "cap" or "corun" (any case); throws IllegalArgumentException naming {@code what}. */
        public static Kind parse(String s, String what) {
            for (Kind k : values()) {
                if (k.label().equalsIgnoreCase(s.trim())) {
                    return k;
                }
            }
            throw new IllegalArgumentException(what + ": unknown method '" + s + "' (expected cap or corun)");
        }
    }

    public static final ProfilingMethod CAP = new ProfilingMethod(Kind.CAP, null, null);

    public ProfilingMethod {
        if (kind == null) {
            throw new IllegalArgumentException("a profiling method needs its kind");
        }
        if (kind == Kind.CAP && (competitor != null || competitorFactor != null)) {
            throw new IllegalArgumentException("cap profiling has no competitor");
        }
        if (kind == Kind.CORUN && (competitor == null || competitor.isBlank())) {
            throw new IllegalArgumentException("corun profiling needs its competitor");
        }
        if (competitorFactor != null && !(competitorFactor > 0 && Double.isFinite(competitorFactor))) {
            throw new IllegalArgumentException("the competitor's factor must be a positive number, got "
                    + competitorFactor);
        }
    }

    /** Corun profiling beside {@code competitor} at dataset factor {@code factor}. */
    public static ProfilingMethod corun(String competitor, double factor) {
        return new ProfilingMethod(Kind.CORUN, competitor, factor);
    }

    public boolean corun() {
        return kind == Kind.CORUN;
    }
}
