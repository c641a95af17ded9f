package io.saba.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.core.corun.CorunAllocator;
import io.saba.core.corun.CorunPredictor;
import io.saba.core.corun.CorunProfile;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code saba allocate}: the Eq. 2 weights for one port carrying the given applications. */
@Command(name = "allocate", mixinStandardHelpOptions = true,
        description = "Compute the bandwidth weights of one switch port carrying the given applications.")
final class AllocateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--table", required = true, paramLabel = "TABLE", description = "Sensitivity table (JSON).")
    Path table;

    @Option(names = "--apps", required = true, split = ",", paramLabel = "WORKLOAD",
            description = "Workloads of the applications on the port, e.g. lr,pagerank,lr. "
                    + "A workload named twice is two applications (the second is reported as NAME#2).")
    List<String> apps;

    @Option(names = "--capacity", defaultValue = "100",
            description = "C_Saba: percent of the link given to Saba (default ${DEFAULT-VALUE}).")
    double capacityPercent;

    @Option(names = "--floor", defaultValue = "5",
            description = "Smallest share of any application, percent (default ${DEFAULT-VALUE}, the lowest profiled level).")
    double floorPercent;

    @Option(names = "--json", description = "Print one JSON object instead of a table.")
    boolean json;

    @Option(names = "--method", defaultValue = "eq2",
            description = "eq2 (the paper's: static slowdown curves) or corun (replay the entries' traffic records "
                    + "through a work-conserving port; needs traffic records in the table) (default ${DEFAULT-VALUE})")
    String method;

    @Option(names = "--evaluate", split = ";", paramLabel = "W1,W2,...",
            description = "corun: also predict these weightings (percent of the link per application, in --apps "
                    + "order; several separated by ';'), e.g. '25,75;50,50;75,25'")
    List<String> evaluate = new ArrayList<>();

    @Option(names = "--levels", description = "Print the priority level the controller gives each workload when "
            + "applications of these workloads register in this order (one 'workload level' line each), instead of "
            + "weights.")
    boolean levels;

    /**
     * Where traffic records come from: the checkout's measured table (all ten workloads) when {@code saba.home} has
     * it, and how to record one's own.
     */
    private static final java.util.function.Supplier<String> TRAFFIC_RECORDS_HINT = () -> {
        String home = System.getProperty("saba.home");
        Path shipped = home == null ? null : Path.of(home, "examples", "testbed-campaign", "table.json");
        return (shipped != null && Files.isReadable(shipped) ? "try " + shipped + " (measured, all ten workloads), or "
                : "") + "record your own with saba profile --testbed NAME (see profiler/README.md)";
    };

    @Override
    public Integer call() throws IOException {
        if (!(capacityPercent > 0 && capacityPercent <= 100)) {
            throw new IllegalArgumentException("--capacity must be in (0, 100], got " + capacityPercent);
        }
        if (!(floorPercent >= 0 && floorPercent < 100)) {
            throw new IllegalArgumentException("--floor must be in [0, 100), got " + floorPercent);
        }
        if (floorPercent * apps.size() > capacityPercent) {
            // the solver would fall back to the equal split without saying so
            throw new IllegalArgumentException("--floor " + percent(floorPercent) + " % for each of " + apps.size()
                    + " applications exceeds --capacity " + percent(capacityPercent) + " %");
        }
        SensitivityTable t = SensitivityTableCodec.parse(Files.readString(table), table.toString());
        List<String> names = new ArrayList<>();
        List<SensitivityModel> models = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String app : apps) {
            String key = SensitivityTable.key(app);
            TableEntry e = t.find(key).orElseThrow(() -> new IllegalArgumentException(
                    "--apps: workload '" + key + "' is not in " + table + " (known: "
                            + String.join(", ", t.entries().keySet()) + ")"));
            int n = seen.merge(key, 1, Integer::sum);
            names.add(n == 1 ? key : key + "#" + n);
            models.add(e.model());
        }
        PrintWriter o = spec.commandLine().getOut();
        if (levels) {
            printLevels(names, models, o);
            return 0;
        }
        if ("corun".equals(method)) {
            return corun(t, names, o);
        }
        if (!"eq2".equals(method)) {
            throw new IllegalArgumentException("--method must be eq2 or corun, got '" + method + "'");
        }
        PortSolution s = new MinSlowdownSolver(floorPercent / 100).solve(models, capacityPercent / 100);
        if (json) {
            o.println(toJson(names, models, s));
        } else {
            o.printf("%-16s %10s %20s%n", "application", "weight %", "predicted slowdown");
            for (int i = 0; i < names.size(); i++) {
                o.printf("%-16s %10.2f %19.3fx%n", names.get(i), 100 * s.weights()[i],
                        models.get(i).slowdown(s.weights()[i]));
            }
            o.printf("objective (sum of predicted slowdowns): %.4f%n", s.objective());
        }
        o.flush();
        return 0;
    }

    /**
     * The levels a controller (8 levels, as EmbeddedController builds it) gives the workloads when they register in
     * {@code --apps} order: each registration re-plans around the levels already handed out, which stay.
     */
    private void printLevels(List<String> names, List<SensitivityModel> models, PrintWriter o) {
        var allocator = new io.saba.core.alloc.Allocator(new MinSlowdownSolver(), 8, capacityPercent / 100);
        io.saba.core.alloc.LevelPlan plan = io.saba.core.alloc.LevelPlan.none();
        Map<String, SensitivityModel> present = new java.util.LinkedHashMap<>();
        for (int i = 0; i < names.size(); i++) {
            if (present.putIfAbsent(names.get(i).replaceFirst("#\\d+$", ""), models.get(i)) == null) {
                plan = allocator.planLevels(present, plan, 8);
            }
        }
        Map<String, Integer> level = plan.levelOfWorkload();
        present.keySet().forEach(w -> o.println(w + " " + level.get(w)));
        o.flush();
    }

    /** The co-run predictor's choice and its predictions for the weightings asked about. */
    private int corun(SensitivityTable t, List<String> names, PrintWriter o) {
        List<CorunProfile> profiles = new ArrayList<>();
        for (String n : names) {
            String key = n.replaceFirst("#\\d+$", "");
            CorunProfile p = t.find(key).orElseThrow().corunProfile();
            if (p == null) {
                throw new IllegalArgumentException("--method corun: workload '" + key + "' in " + table
                        + " has no traffic record; " + TRAFFIC_RECORDS_HINT.get());
            }
            profiles.add(p);
        }
        CorunAllocator.Decision d = CorunAllocator.choose(profiles, capacityPercent / 100, floorPercent / 100, null,
                List.of());
        o.printf("%-16s %8s %8s %12s%n", "application", "c", "alone s", "");
        for (int i = 0; i < names.size(); i++) {
            o.printf("%-16s %8.3f %8.1f%n", names.get(i), profiles.get(i).networkBound(),
                    profiles.get(i).record().seconds());
        }
        o.printf("%-24s %s   %s%n", "weights (% of the link)", "predicted slowdowns", "sum");
        printPrediction(o, "co-run choice", d.weights(), profiles);
        double[] equal = new double[names.size()];
        java.util.Arrays.fill(equal, capacityPercent / 100 / names.size());
        printPrediction(o, "equal split", equal, profiles);
        for (String spec : evaluate) {
            String[] parts = spec.split(",");
            if (parts.length != names.size()) {
                throw new IllegalArgumentException("--evaluate '" + spec + "': " + names.size() + " weights expected");
            }
            double[] w = new double[parts.length];
            for (int i = 0; i < w.length; i++) {
                try {
                    w[i] = Double.parseDouble(parts[i].trim()) / 100;
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--evaluate '" + spec + "': '" + parts[i] + "' is not a number");
                }
            }
            printPrediction(o, spec, w, profiles);
        }
        o.flush();
        return 0;
    }

    private static String percent(double p) {
        return new java.math.BigDecimal(p).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private static void printPrediction(PrintWriter o, String label, double[] w, List<CorunProfile> profiles) {
        double[] d = CorunPredictor.slowdowns(profiles, w);
        StringBuilder ws = new StringBuilder();
        StringBuilder ds = new StringBuilder();
        double sum = 0;
        for (int i = 0; i < w.length; i++) {
            ws.append(String.format(java.util.Locale.ROOT, "%s%.1f", i == 0 ? "" : "/", 100 * w[i]));
            ds.append(String.format(java.util.Locale.ROOT, "%s%.3fx", i == 0 ? "" : " ", d[i]));
            sum += d[i];
        }
        o.printf("%-14s %-10s %s   %.3f%n", label, ws, ds, sum);
    }

    private static String toJson(List<String> names, List<SensitivityModel> models, PortSolution s) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ObjectNode weights = root.putObject("weights");
        ObjectNode slowdown = root.putObject("predicted_slowdown");
        for (int i = 0; i < names.size(); i++) {
            weights.put(names.get(i), s.weights()[i]); // fractions of the link, as /status.json gives them
            slowdown.put(names.get(i), models.get(i).slowdown(s.weights()[i]));
        }
        root.put("objective", s.objective());
        return mapper.writeValueAsString(root);
    }
}
