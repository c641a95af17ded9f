package io.saba.harness.realspark;

import io.saba.harness.campaign.DrawnJob;
import io.saba.harness.campaign.SetupGenerator;
import io.saba.harness.campaign.SetupRules;
import java.util.ArrayList;
import java.util.List;

/**
 * The setups of a real-Spark campaign on an N-host testbed: 3–4 jobs drawn with replacement from the workloads,
 * a dataset factor per job from {0.5, 1, 2}, and 1 to N−1 instances placed on distinct worker hosts h2..hN (h1 runs
 * the drivers and the controller). Drawn by the simulated campaign's {@link SetupGenerator}, so setup i depends
 * only on (seed, i, workloads, N).
 */
public final class SetupDraws {
    private final SetupGenerator<String> generator;

    /**
     * @param workloads the workloads to draw from; sorted here, so the caller's order does not matter
     * @param hosts     testbed hosts (at least 3: h1 plus two workers)
     */
    public SetupDraws(long seed, List<String> workloads, int hosts) {
        if (hosts < 3) {
            throw new IllegalArgumentException("a real-Spark campaign needs at least 3 testbed hosts (h1 for drivers "
                    + "and the controller, two workers for a shuffle), got " + hosts);
        }
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("no workloads to draw from");
        }
        List<String> workers = new ArrayList<>();
        for (int h = 2; h <= hosts; h++) {
            workers.add("h" + h);
        }
        generator = new SetupGenerator<>(workloads.stream().sorted().distinct().toList(), workers,
                SetupRules.namespaceTestbed(hosts - 1), seed);
    }

    /** The jobs of setup {@code index}. */
    public List<SetupJob> setup(int index) {
        List<SetupJob> jobs = new ArrayList<>();
        for (DrawnJob<String> d : generator.setup(index)) {
            jobs.add(new SetupJob(d.id(), d.workload(), d.datasetScale(),
                    d.hosts().stream().map(h -> Integer.parseInt(h.substring(1))).toList()));
        }
        return jobs;
    }
}
