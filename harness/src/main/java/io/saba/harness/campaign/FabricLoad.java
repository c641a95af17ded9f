package io.saba.harness.campaign;

import io.saba.core.alloc.PortId;
import io.saba.core.stats.Stats;
import io.saba.harness.sim.engine.PortLoads;
import io.saba.harness.sim.network.TopologyNetwork;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How loaded a simulated fabric was over one run, per tier of ports: an
 * allocation can only change something on a port that is saturated and shared by applications.
 *
 * @param tiers host egress, switch toward host, switch toward switch (those that carried anything)
 */
public record FabricLoad(List<Tier> tiers) {
    /**
     * One tier's ports: how many applications crossed each, what share of the run's time each was busy with
     * (utilisation: bytes over capacity × the run's length) and saturated.
     */
    public record Tier(String name, int ports, double sharedFraction, double appsMedian, int appsMax,
                       double utilisationMedian, double utilisationP90, double utilisationMax,
                       double saturatedMedian, double saturatedP90, double sharedAndSaturatedFraction) {
    }

    /** A port shared and saturated at least this share of the run counts in {@link Tier#sharedAndSaturatedFraction}. */
    public static final double MOSTLY = 0.10;

    public static FabricLoad of(TopologyNetwork network, PortLoads loads, double runSeconds) {
        Map<String, List<PortId>> byTier = new LinkedHashMap<>();
        byTier.put("host egress", new ArrayList<>());
        byTier.put("switch to host", new ArrayList<>());
        byTier.put("switch to switch", new ArrayList<>());
        for (PortId p : loads.ports()) {
            String tier = network.isHostPort(p) ? "host egress" : network.isTowardHost(p) ? "switch to host"
                    : "switch to switch";
            byTier.get(tier).add(p);
        }
        List<Tier> tiers = new ArrayList<>();
        byTier.forEach((name, ports) -> {
            if (ports.isEmpty()) {
                return;
            }
            int n = ports.size();
            double[] apps = new double[n];
            double[] util = new double[n];
            double[] sat = new double[n];
            int shared = 0;
            int sharedSaturated = 0;
            for (int i = 0; i < n; i++) {
                PortId p = ports.get(i);
                apps[i] = loads.jobs(p);
                util[i] = loads.bytes(p) / (network.capacity(p) * runSeconds);
                sat[i] = loads.saturatedSeconds(p) / runSeconds;
                shared += apps[i] >= 2 ? 1 : 0;
                sharedSaturated += apps[i] >= 2 && sat[i] >= MOSTLY ? 1 : 0;
            }
            Arrays.sort(apps);
            Arrays.sort(util);
            Arrays.sort(sat);
            tiers.add(new Tier(name, n, (double) shared / n, quantile(apps, 0.5), (int) apps[n - 1],
                    quantile(util, 0.5), quantile(util, 0.9), util[n - 1], quantile(sat, 0.5), quantile(sat, 0.9),
                    (double) sharedSaturated / n));
        });
        return new FabricLoad(tiers);
    }

    /** Nearest-rank quantile ({@link Stats#quantile}). */
    private static double quantile(double[] values, double q) {
        return Stats.quantile(values, q);
    }

    public String report() {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-17s %6s %7s %11s %22s %17s %16s%n",
                "ports", "count", "shared", "apps med/max", "utilisation med/p90/max", "saturated med/p90",
                "shared+saturated"));
        for (Tier t : tiers) {
            s.append(String.format(Locale.ROOT, "%-17s %6d %6.0f%% %7.0f/%-3d %8.0f%%/%3.0f%%/%3.0f%% %9.0f%%/%3.0f%% %15.0f%%%n",
                    t.name(), t.ports(), 100 * t.sharedFraction(), t.appsMedian(), t.appsMax(),
                    100 * t.utilisationMedian(), 100 * t.utilisationP90(), 100 * t.utilisationMax(),
                    100 * t.saturatedMedian(), 100 * t.saturatedP90(), 100 * t.sharedAndSaturatedFraction()));
        }
        return s.toString();
    }
}
