// Replays an online controller's journal through the controller's own LearnedModels and prints, after each unit,
// the co-run profiles learnt for two workloads and the weights the co-run predictor would give them on a shared port
// (C_Saba 0.9, floor 0.05, from the equal split): what an online controller decided, and why, unit by unit.
//
//   mvn -q -o dependency:build-classpath -pl controller-core -Dmdep.outputFile=/tmp/cp.txt
//   java -cp "$(cat /tmp/cp.txt):controller-core/target/classes" scripts/journal-corun.java JOURNAL_DIR A B
//
// JOURNAL_DIR is a copy (the journal is opened, and its lock taken); A and B are workload names, e.g. pagerank sort.

import io.saba.controller.alloc.CorunSearches;
import io.saba.controller.estimate.LearnedModels;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LogRequest;
import io.saba.core.corun.CorunAllocator;
import io.saba.core.corun.CorunProfile;
import io.saba.core.estimate.Observation;
import io.saba.core.table.ModelCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

class JournalCorun {
    public static void main(String[] args) {
        if (args.length != 3) {
            System.err.println("usage: journal-corun.java JOURNAL_DIR WORKLOAD_A WORKLOAD_B");
            System.exit(2);
        }
        LearnedModels learned = new LearnedModels(SensitivityMode.ONLINE);
        ModelCatalog none = ModelCatalog.empty();
        if (!java.nio.file.Files.isRegularFile(Path.of(args[0], "journal.log"))) {
            System.err.println("journal-corun: " + args[0] + " holds no journal.log");
            System.exit(2);
        }
        try (Journal journal = new Journal(Path.of(args[0]), FsyncPolicy.NEVER, 0)) {
            for (LogRequest r : journal.replay()) {
                if (r instanceof LogRequest.Learned snapshot) {
                    learned.restore(snapshot.workloads(), none);
                    System.out.println("(a snapshot of what was learnt before)");
                } else if (r instanceof LogRequest.Observed observed) {
                    for (WorkloadObservation u : observed.units()) {
                        show(learned, u, learned.observe(u.workload(), u.app(), u.observation(), none)
                                .modelsChanged().isEmpty(), args[1], args[2], none);
                    }
                }
            }
        } catch (RuntimeException e) {
            System.err.println("journal-corun: cannot replay " + args[0] + ": " + e.getMessage());
            System.exit(2);
        }
    }

    private static void show(LearnedModels learned, WorkloadObservation u, boolean unchanged, String a, String b,
                             ModelCatalog none) {
        Observation o = u.observation();
        CorunProfile p = learned.profileOf(u.workload(), none);
        System.out.printf(Locale.ROOT, "%-10s %s %6d ms, network %6d ms at share %.3f (%s): profile %s%n",
                u.workload(), u.app(), o.runMillis(), o.networkWaitMillis(), o.share(), o.signal().label(),
                p == null ? "none" : p.record() + String.format(Locale.ROOT, ", c %.3f", p.networkBound()));
        CorunProfile pa = learned.profileOf(a, none);
        CorunProfile pb = learned.profileOf(b, none);
        if (unchanged || pa == null || pb == null) {
            return;
        }
        CorunAllocator.Decision d = new CorunSearches().choose(List.of(pa, pb), 0.9, 0.05, new double[] {0.45, 0.45});
        System.out.printf(Locale.ROOT, "    -> %s %.3f, %s %.3f: predicted %.3f against %.3f equal (gain %.1f %%)%n",
                a, d.weights()[0], b, d.weights()[1], d.predictedTotal(), d.equalTotal(), 100 * d.gainOverEqual());
    }
}
