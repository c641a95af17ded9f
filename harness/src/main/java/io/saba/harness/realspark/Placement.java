package io.saba.harness.realspark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Puts each instance of a job on its drawn host, on one Spark standalone cluster, with custom resources.
 *
 * <p>Standalone picks executor hosts itself; it only launches an executor on a worker that has every resource the
 * application asks for. So every worker offers one resource per set of worker hosts it belongs to (named after the
 * set: "h2h4" on h2 and on h4), with one address per job that may share the host; a job drawn on {h2, h4} asks for
 * one "h2h4" per executor, one core per executor and as many cores in total as it has hosts. Spreading out
 * (the default) then gives each of those workers exactly one of its executors. Workers, resources and the master stay
 * up for the whole campaign, so a setup pays no cluster start-up. The master's log tells where executors went
 * ({@code SparkMasterLog}), which the campaign checks after every run.
 */
public final class Placement {
    /** 2^(hosts−2) resources per worker: the cap keeps that to 256. */
    public static final int MAX_HOSTS = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    private Placement() {
    }

    /** The resource naming a set of worker hosts: {2, 4} → "h2h4". */
    public static String resourceName(Collection<Integer> hosts) {
        return new TreeSet<>(hosts).stream().map(h -> "h" + h).collect(Collectors.joining());
    }

    /** Every set of the workers that contains {@code worker}. */
    static List<List<Integer>> setsContaining(int worker, List<Integer> workers) {
        List<Integer> others = workers.stream().filter(w -> w != worker).sorted().toList();
        List<List<Integer>> sets = new ArrayList<>();
        for (int mask = 0; mask < 1 << others.size(); mask++) {
            List<Integer> set = new ArrayList<>(List.of(worker));
            for (int b = 0; b < others.size(); b++) {
                if ((mask & 1 << b) != 0) {
                    set.add(others.get(b));
                }
            }
            sets.add(set.stream().sorted().toList());
        }
        return sets;
    }

    /**
     * The worker's Spark properties: the resources it offers ({@code spark.worker.resource.NAME.amount}) and the
     * file that lists their addresses ({@code spark.worker.resourcesFile}, see {@link #resourcesJson}).
     *
     * @param slots jobs that may share one host (the most jobs in a setup)
     */
    public static Map<String, String> workerProperties(int worker, List<Integer> workers, int slots,
                                                       String resourcesFile) {
        Map<String, String> p = new TreeMap<>();
        p.put("spark.worker.resourcesFile", resourcesFile);
        for (List<Integer> set : setsContaining(worker, workers)) {
            p.put("spark.worker.resource." + resourceName(set) + ".amount", Integer.toString(slots));
        }
        return p;
    }

    /** The worker's resources file: a JSON array of Spark's ResourceAllocation, addresses "0".."slots−1". */
    public static String resourcesJson(int worker, List<Integer> workers, int slots) {
        return resourcesJson(setsContaining(worker, workers).stream().map(Placement::resourceName).toList(), slots);
    }

    /** A resources file offering {@code slots} addresses of each named resource. */
    static String resourcesJson(List<String> resourceNames, int slots) {
        ArrayNode file = JSON.createArrayNode();
        for (String name : resourceNames) {
            ObjectNode allocation = file.addObject();
            allocation.putObject("id").put("componentName", "spark.worker").put("resourceName", name);
            ArrayNode addresses = allocation.putArray("addresses");
            for (int i = 0; i < slots; i++) {
                addresses.add(Integer.toString(i));
            }
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(file) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Spark settings of a job's driver that pin its executors to its hosts. */
    public static Map<String, String> jobConf(SetupJob job) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("spark.executor.cores", "1");
        c.put("spark.cores.max", Integer.toString(job.instances()));
        c.put("spark.executor.resource." + resourceName(job.hosts()) + ".amount", "1");
        return c;
    }
}
