package io.saba.harness.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Draws cluster setups by {@link SetupRules}. Setup i of a campaign depends only on (seed, i): each setup gets its
 * own random stream, so setups can be generated in any order, on any thread, or skipped on resume.
 *
 * @param <W> what a job runs: the simulator's workload model, or a workload's name on a real cluster
 */
public final class SetupGenerator<W> {
    private final List<W> workloads;
    private final List<String> hosts;
    private final SetupRules rules;
    private final long seed;

    public SetupGenerator(List<W> workloads, List<String> hosts, SetupRules rules, long seed) {
        this.workloads = List.copyOf(workloads);
        this.hosts = List.copyOf(hosts);
        this.rules = rules;
        this.seed = seed;
    }

    /** The jobs of setup {@code index}. */
    public List<DrawnJob<W>> setup(int index) {
        SplittableRandom rnd = new SplittableRandom(mix(seed, index));
        int[] load = new int[hosts.size()];
        List<DrawnJob<W>> jobs = new ArrayList<>();
        // a fixed count draws nothing, so fixed-count campaigns keep the streams they always had
        int count = rules.minJobs() == rules.maxJobs() ? rules.minJobs()
                : rules.minJobs() + rnd.nextInt(rules.maxJobs() - rules.minJobs() + 1);
        for (int j = 0; j < count; j++) {
            W w = workloads.get(rnd.nextInt(workloads.size()));
            double scale = rules.datasetScales()[rnd.nextInt(rules.datasetScales().length)];
            int n = rules.minInstances() + rnd.nextInt(rules.maxInstances() - rules.minInstances() + 1);
            List<Integer> free = new ArrayList<>();
            for (int h = 0; h < hosts.size(); h++) {
                if (load[h] < rules.maxJobsPerServer()) {
                    free.add(h);
                }
            }
            n = Math.min(n, free.size());
            // Partial Fisher-Yates: n distinct servers with room, so at most one instance per server.
            List<String> chosen = new ArrayList<>();
            for (int k = 0; k < n; k++) {
                int pick = k + rnd.nextInt(free.size() - k);
                int h = free.get(pick);
                free.set(pick, free.get(k));
                free.set(k, h);
                load[h]++;
                chosen.add(hosts.get(h));
            }
            jobs.add(new DrawnJob<>("s" + index + "-j" + j, w, scale, chosen));
        }
        return jobs;
    }

    /** SplitMix64 of the pair, so neighbouring setups get unrelated streams. */
    static long mix(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
