package io.saba.bench;

import io.saba.core.alloc.Application;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One scenario of {@link ControllerOverheadBenchmark}: applications of {@link ControllerOverheadBenchmark#INSTANCES}
 * instances each placed at random on distinct servers, who crosses each port, and each port's state as a controller
 * holds it; applications arrive and leave, changing that state as a controller would while connections come and go.
 */
final class OverheadScenario {
    /** One port as a controller holds it: applications per model, its queue count, its last multiplier. */
    static final class PortState {
        final PortId port;
        final int[] counts;
        final int queues;
        double lambda = Double.NaN;

        PortState(PortId port, int[] counts, int queues) {
            this.port = port;
            this.counts = counts;
            this.queues = queues;
        }
    }

    final Map<PortId, BitSet> appsOnPort;
    final Map<PortId, PortState> ports = new HashMap<>();
    /** By id; null where an application left. */
    final List<Application> apps;
    private final Topology topology;
    private final List<SensitivityModel> models;
    private final Map<PortId, Integer> queues;

    private OverheadScenario(Topology topology, List<SensitivityModel> models, Map<PortId, Integer> queues,
                             Map<PortId, BitSet> appsOnPort, List<Application> apps) {
        this.topology = topology;
        this.models = models;
        this.queues = queues;
        this.appsOnPort = appsOnPort;
        this.apps = apps;
        countModels(appsOnPort, apps, models).forEach((p, c) -> ports.put(p, new PortState(p, c, queues.get(p))));
    }

    /**
     * Places every application's instances on distinct random servers and builds each port's state.
     *
     * @param queues each port's queue count, as a controller holds it with its state; filled for the ports crossed
     */
    static OverheadScenario place(Topology topology, List<SensitivityModel> models, Map<PortId, Integer> queues,
                                  List<Application> apps, List<String> hosts, Random rnd) {
        Map<PortId, BitSet> appsOnPort = new HashMap<>();
        for (int a = 0; a < apps.size(); a++) {
            List<String> inst = pick(hosts, ControllerOverheadBenchmark.INSTANCES, rnd);
            for (String src : inst) {
                for (String dst : inst) {
                    if (!src.equals(dst)) {
                        for (PortId p : topology.path(src, dst)) {
                            appsOnPort.computeIfAbsent(p, x -> new BitSet()).set(a);
                        }
                    }
                }
            }
        }
        appsOnPort.keySet().forEach(p -> queues.computeIfAbsent(p, topology::queues));
        return new OverheadScenario(topology, models, queues, appsOnPort, apps);
    }

    /** Application {@code a}, of a random model's workload. */
    static Application newApplication(int a, List<SensitivityModel> models, Random rnd) {
        int m = rnd.nextInt(models.size());
        return new Application(String.format("app%04d", a), workload(m), models.get(m));
    }

    /** Model m's workload: every model of the benchmark is a workload of its own. */
    static String workload(int m) {
        return "m" + m;
    }

    /**
     * A new application of a random workload arrives, placed like the others.
     *
     * @param workloads the workloads the scenario's levels were planned for
     * @return the ports whose application set changed, or null when the application's workload is not among
     *         {@code workloads} (it would change the levels and recompute everything) and it did not arrive
     */
    List<PortId> arrive(Set<String> workloads, List<String> hosts, Random rnd) {
        int id = apps.size();
        Application app = newApplication(id, models, rnd);
        if (!workloads.contains(app.workload())) {
            return null;
        }
        apps.add(app);
        List<PortId> changed = new ArrayList<>(portsOf(pick(hosts, ControllerOverheadBenchmark.INSTANCES, rnd)));
        int m = models.indexOf(app.model());
        for (PortId p : changed) {
            appsOnPort.computeIfAbsent(p, x -> new BitSet()).set(id);
            ports.computeIfAbsent(p, x -> new PortState(x, new int[models.size()],
                    queues.computeIfAbsent(x, topology::queues))).counts[m]++;
        }
        return changed;
    }

    /**
     * A random application leaves; the ports nobody crosses any more are released.
     *
     * @return the ports still in use whose application set changed, or null when the one chosen is the last of its
     *         workload (the levels would change) and it did not leave
     */
    List<PortId> leave(Random rnd) {
        int id = leaver(rnd);
        if (workloadLeaves(id)) {
            return null;
        }
        int m = models.indexOf(apps.get(id).model());
        List<PortId> changed = new ArrayList<>();
        for (Map.Entry<PortId, BitSet> p : appsOnPort.entrySet()) {
            if (p.getValue().get(id)) {
                p.getValue().clear(id);
                changed.add(p.getKey());
                ports.get(p.getKey()).counts[m]--;
            }
        }
        changed.removeIf(p -> {
            if (appsOnPort.get(p).isEmpty()) { // nobody left: the port is released, not planned
                appsOnPort.remove(p);
                ports.remove(p);
                return true;
            }
            return false;
        });
        apps.set(id, null);
        return changed;
    }

    /** A random application still present. */
    private int leaver(Random rnd) {
        while (true) {
            int id = rnd.nextInt(apps.size());
            if (apps.get(id) != null) {
                return id;
            }
        }
    }

    /** Whether application {@code id} is the last present one of its workload. */
    private boolean workloadLeaves(int id) {
        String w = apps.get(id).workload();
        for (int a = 0; a < apps.size(); a++) {
            if (a != id && apps.get(a) != null && apps.get(a).workload().equals(w)) {
                return false;
            }
        }
        return true;
    }

    /** The ports the connections among these instances cross. */
    private Set<PortId> portsOf(List<String> instances) {
        Set<PortId> out = new HashSet<>();
        for (String src : instances) {
            for (String dst : instances) {
                if (!src.equals(dst)) {
                    out.addAll(topology.path(src, dst));
                }
            }
        }
        return out;
    }

    /** Per port, how many of its applications run each model: the state Eq. 2 needs. */
    private static Map<PortId, int[]> countModels(Map<PortId, BitSet> appsOnPort, List<Application> apps,
                                                  List<SensitivityModel> models) {
        int[] modelOfApp = new int[apps.size()];
        for (int a = 0; a < modelOfApp.length; a++) {
            modelOfApp[a] = models.indexOf(apps.get(a).model());
        }
        Map<PortId, int[]> counts = new HashMap<>(appsOnPort.size() * 2);
        appsOnPort.forEach((port, set) -> {
            int[] c = new int[models.size()];
            set.stream().forEach(a -> c[modelOfApp[a]]++);
            counts.put(port, c);
        });
        return counts;
    }

    private static List<String> pick(List<String> hosts, int n, Random rnd) {
        List<String> out = new ArrayList<>(n);
        BitSet taken = new BitSet(hosts.size());
        while (out.size() < Math.min(n, hosts.size())) {
            int i = rnd.nextInt(hosts.size());
            if (!taken.get(i)) {
                taken.set(i);
                out.add(hosts.get(i));
            }
        }
        return out;
    }
}
