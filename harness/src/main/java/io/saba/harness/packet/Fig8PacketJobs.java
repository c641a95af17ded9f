package io.saba.harness.packet;

import io.saba.harness.campaign.JobOutcome;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rows of a {@code fig8-packet} folder by job: each job with its time under every scheme, for the setups
 * every requested scheme has finished.
 */
public final class Fig8PacketJobs {
    /** A job and its times, by scheme. */
    public record Job(int setup, String id, String workload, double datasetScale, int instances,
                      Map<Fig8Scheme, Double> seconds) {
        /** This job with {@code base} as its baseline and {@code scheme} as its policy. */
        public JobOutcome outcome(Fig8Scheme base, Fig8Scheme scheme) {
            if (base.fluid() != scheme.fluid()) {
                throw new IllegalArgumentException(scheme + " and " + base + " are times of different simulators");
            }
            return new JobOutcome(setup, id, workload, datasetScale, instances, seconds.get(base),
                    seconds.get(scheme));
        }
    }

    private final List<Job> jobs;
    private final Set<Fig8Scheme> schemes;

    private Fig8PacketJobs(List<Job> jobs, Set<Fig8Scheme> schemes) {
        this.jobs = List.copyOf(jobs);
        this.schemes = Set.copyOf(schemes);
    }

    /**
     * The jobs of the setups below {@code setups} where every one of {@code schemes} has a time for every job of the
     * setup; the first row of a (job, scheme) wins (a setup rerun after a torn write appears twice).
     */
    public static Fig8PacketJobs of(List<Fig8PacketRow> rows, Set<Fig8Scheme> schemes, int setups, int jobsPerSetup) {
        Map<Integer, Map<String, Map<Fig8Scheme, Fig8PacketRow>>> by = new TreeMap<>();
        for (Fig8PacketRow r : rows) {
            if (r.setup() < setups) {
                by.computeIfAbsent(r.setup(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(r.job(), k -> new EnumMap<>(Fig8Scheme.class)).putIfAbsent(r.scheme(), r);
            }
        }
        List<Job> out = new ArrayList<>();
        by.forEach((setup, byJob) -> {
            boolean complete = byJob.size() == jobsPerSetup
                    && byJob.values().stream().allMatch(s -> s.keySet().containsAll(schemes));
            if (!complete) {
                return;
            }
            byJob.entrySet().stream().sorted(java.util.Comparator.comparingInt(e -> jobNumber(e.getKey())))
                    .forEach(e -> {
                        Fig8PacketRow any = e.getValue().values().iterator().next();
                        Map<Fig8Scheme, Double> secs = new EnumMap<>(Fig8Scheme.class);
                        e.getValue().forEach((s, r) -> secs.put(s, r.seconds()));
                        out.add(new Job(setup, e.getKey(), any.workload(), any.datasetScale(), any.instances(),
                                secs));
                    });
        });
        return new Fig8PacketJobs(out, schemes);
    }

    /** The (setup, scheme) pairs with a time for every job of the setup: what a resumed run skips. */
    public static Set<String> done(List<Fig8PacketRow> rows, int jobsPerSetup) {
        Map<String, Set<String>> by = new LinkedHashMap<>();
        rows.forEach(r -> by.computeIfAbsent(key(r.setup(), r.scheme()), k -> new java.util.HashSet<>()).add(r.job()));
        Set<String> out = new java.util.HashSet<>();
        by.forEach((k, v) -> {
            if (v.size() == jobsPerSetup) {
                out.add(k);
            }
        });
        return out;
    }

    static String key(int setup, Fig8Scheme scheme) {
        return setup + "/" + scheme;
    }

    private static int jobNumber(String id) {
        return Integer.parseInt(id.substring(id.lastIndexOf('j') + 1));
    }

    public List<Job> jobs() {
        return jobs;
    }

    public Set<Fig8Scheme> schemes() {
        return schemes;
    }

    /** Number of complete setups. */
    public int setups() {
        return (int) jobs.stream().mapToInt(Job::setup).distinct().count();
    }

    /** Every job with {@code base} as its baseline and {@code scheme} as its policy. */
    public List<JobOutcome> outcomes(Fig8Scheme base, Fig8Scheme scheme) {
        return jobs.stream().map(j -> j.outcome(base, scheme)).toList();
    }
}
