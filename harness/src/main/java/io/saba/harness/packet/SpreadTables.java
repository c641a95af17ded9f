package io.saba.harness.packet;

import io.saba.controller.fabric.infiniband.Sl2Vl;
import io.saba.core.alloc.PortAllocation;
import io.saba.harness.sim.workload.JobSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Saba's plan with the VLs it leaves unused on a port spent on separating applications of one queue. Saba maps
 * levels to queues, so applications of one level share a VL even where the port has VLs nobody uses; the control
 * that spreads applications over the VLs without knowing their sensitivity separates them. This writes Saba's
 * levels, queues and weights with one change: each application gets a service level of its own, and a port's free
 * VLs go, one at a time, to the queue with the most applications per VL, whose applications then take its VLs in
 * turn and split its weight by their number.
 *
 * <p>Service levels: InfiniBand has 15 besides SL 0, fewer than a setup's 16 jobs. Jobs are taken by level, and once
 * the fresh SLs left are only enough for the levels still to come, a job shares the SL of its level's first job,
 * so two jobs on one SL always have one level (one SL has one VL per port).
 */
final class SpreadTables {
    private final Map<String, Integer> slOf;
    private final Map<String, Integer> levelOf;

    private SpreadTables(Map<String, Integer> slOf, Map<String, Integer> levelOf) {
        this.slOf = Map.copyOf(slOf);
        this.levelOf = Map.copyOf(levelOf);
    }

    /**
     * @param jobs    the setup's jobs
     * @param levelOf each job's level in Saba's plan
     * @param sls     service levels the fabric has (SL 0 stays the default class's)
     */
    static SpreadTables of(List<JobSpec> jobs, Map<String, Integer> levelOf, int sls) {
        Map<Integer, List<String>> byLevel = new TreeMap<>();
        for (JobSpec j : jobs) {
            byLevel.computeIfAbsent(levelOf.get(j.id()), k -> new ArrayList<>()).add(j.id());
        }
        int fresh = sls - 1;
        if (byLevel.size() > fresh) {
            throw new IllegalArgumentException(byLevel.size() + " levels, more than the " + fresh + " service levels");
        }
        Map<String, Integer> slOf = new LinkedHashMap<>();
        int next = 1;
        int levelsToCome = byLevel.size();
        for (List<String> level : byLevel.values()) {
            levelsToCome--;
            int first = next++;
            slOf.put(level.get(0), first);
            for (String job : level.subList(1, level.size())) {
                slOf.put(job, sls - next > levelsToCome ? next++ : first);
            }
        }
        return new SpreadTables(slOf, levelOf);
    }

    /** Each job's service level. */
    Map<String, Integer> slOf() {
        return slOf;
    }

    /** A port's SL-to-VL table (SLs of no job here → VL 0) and VL weights. */
    record Port(int[] sl2vl, double[] weights) {
    }

    /**
     * @param jobs the jobs crossing the port
     * @param plan Saba's allocation of the port
     * @param vls  the port's VLs, VL 0 included
     */
    Port port(List<String> jobs, PortAllocation plan, int vls) {
        Map<Integer, TreeSet<Integer>> slsOfQueue = new TreeMap<>();
        for (String j : jobs) {
            int queue = plan.queueOfLevel().getOrDefault(levelOf.get(j), 0);
            slsOfQueue.computeIfAbsent(queue, k -> new TreeSet<>()).add(slOf.get(j));
        }
        Map<Integer, List<Integer>> vlsOfQueue = new TreeMap<>();
        slsOfQueue.keySet().forEach(q -> vlsOfQueue.put(q, new ArrayList<>(List.of(q))));
        TreeSet<Integer> free = new TreeSet<>();
        for (int vl = 1; vl < vls; vl++) {
            if (!vlsOfQueue.containsKey(vl)) {
                free.add(vl);
            }
        }
        Comparator<Integer> crowded = Comparator.comparingDouble(
                q -> (double) slsOfQueue.get(q).size() / vlsOfQueue.get(q).size());
        while (!free.isEmpty()) {
            Integer q = slsOfQueue.keySet().stream()
                    .filter(k -> slsOfQueue.get(k).size() > vlsOfQueue.get(k).size())
                    .max(crowded.thenComparing(Comparator.<Integer>reverseOrder())).orElse(null);
            if (q == null) {
                break;
            }
            vlsOfQueue.get(q).add(free.pollFirst());
        }
        int[] sl2vl = new int[Sl2Vl.SLS];
        double[] w = plan.queueWeights();
        double[] weights = new double[vls];
        Map<Integer, Integer> slsOnVl = new HashMap<>();
        slsOfQueue.forEach((q, sls) -> {
            List<Integer> vlsHere = vlsOfQueue.get(q);
            int i = 0;
            for (int sl : sls) {
                int vl = vlsHere.get(i++ % vlsHere.size());
                sl2vl[sl] = vl;
                slsOnVl.merge(vl, 1, Integer::sum);
            }
            double weight = q < w.length ? w[q] : 0;
            vlsHere.forEach(vl -> weights[vl] = weight * slsOnVl.getOrDefault(vl, 0) / sls.size());
        });
        return new Port(sl2vl, weights);
    }
}
