package io.saba.bench.proof;

import java.util.ArrayList;
import java.util.List;

/** What the proof measured, the checks it made, and the table it prints. */
public final class ProofReport {
    /**
     * One table row.
     *
     * @param phase    "baseline", "saba", "saba, sort stopped"...
     * @param app      application
     * @param level    priority level
     * @param dscp     DSCP its packets carry
     * @param weight   the share Saba gave it (NaN in the baseline: no weights)
     * @param expected the share it should get in this phase
     * @param mbps     measured goodput at the receiver
     * @param share    mbps / link rate (bytes over the whole steady window)
     * @param median   median of the 0.5 s interval goodputs in the window / link rate (what is checked)
     */
    public record Row(String phase, String app, int level, int dscp, double weight, double expected, double mbps,
                      double share, double median) {
    }

    private final long linkBps;
    private final List<Row> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    ProofReport(long linkBps) {
        this.linkBps = linkBps;
    }

    void add(Row r) {
        rows.add(r);
    }

    void note(String s) {
        notes.add(s);
    }

    /** Records a check; a failed one is listed in {@link #failures()}. */
    void check(boolean ok, String what) {
        notes.add((ok ? "PASS " : "FAIL ") + what);
        if (!ok) {
            failures.add(what);
        }
    }

    public List<Row> rows() {
        return List.copyOf(rows);
    }

    public List<String> failures() {
        return List.copyOf(failures);
    }

    public boolean passed() {
        return failures.isEmpty();
    }

    /** The table and the checks, as printed by {@code saba testbed proof} and the test. */
    public String render() {
        StringBuilder s = new StringBuilder();
        s.append(String.format("link %.0f Mbit/s. Mbit/s and share: goodput at the receiver over the steady window "
                + "(bytes / time), share = of the link rate; median: median 0.5 s interval share, checked against "
                + "expected ±%.2f; of-total: share of all goodput in the phase%n", linkBps / 1e6,
                TestbedProof.TOLERANCE));
        s.append(String.format("%-22s %-9s %5s %4s %6s %8s %7s %6s %6s %8s%n",
                "phase", "app", "level", "dscp", "weight", "expected", "Mbit/s", "share", "median", "of-total"));
        for (Row r : rows) {
            double phaseTotal = rows.stream().filter(o -> o.phase().equals(r.phase())).mapToDouble(Row::mbps).sum();
            s.append(String.format("%-22s %-9s %5d %4d %6s %8.3f %7.1f %6.3f %6.3f %8.3f%n", r.phase(), r.app(),
                    r.level(), r.dscp(), Double.isNaN(r.weight()) ? "-" : String.format("%.3f", r.weight()),
                    r.expected(), r.mbps(), r.share(), r.median(), r.mbps() / phaseTotal));
        }
        for (String n : notes) {
            s.append(n).append('\n');
        }
        s.append(passed() ? "PROOF PASSED\n" : "PROOF FAILED: " + failures + "\n");
        return s.toString();
    }
}
