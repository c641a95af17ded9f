package io.saba.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.Eq2Solver;
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

    @Option(names = "--levels", description = "Print the priority level the controller gives each workload when "
            + "these are the workloads registered (one 'workload level' line each), instead of weights.")
    boolean levels;

    @Override
    public Integer call() throws IOException {
        if (!(capacityPercent > 0 && capacityPercent <= 100)) {
            throw new IllegalArgumentException("--capacity must be in (0, 100], got " + capacityPercent);
        }
        if (!(floorPercent >= 0 && floorPercent < 100)) {
            throw new IllegalArgumentException("--floor must be in [0, 100), got " + floorPercent);
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
            // the controller clusters the distinct workloads present (EmbeddedController's engine, 8 levels)
            Map<String, SensitivityModel> byWorkload = new java.util.TreeMap<>();
            for (int i = 0; i < names.size(); i++) {
                byWorkload.put(names.get(i).replaceFirst("#\\d+$", ""), models.get(i));
            }
            Map<String, Integer> level = new io.saba.controller.alloc.CoreAllocationEngine(
                    new io.saba.core.alloc.Allocator(new Eq2Solver(), 8, capacityPercent / 100), 8)
                    .plan(byWorkload).levelOfWorkload();
            byWorkload.keySet().forEach(w -> o.println(w + " " + level.get(w)));
            o.flush();
            return 0;
        }
        PortSolution s = new Eq2Solver(floorPercent / 100).solve(models, capacityPercent / 100);
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

    private static String toJson(List<String> names, List<SensitivityModel> models, PortSolution s) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        ObjectNode weights = root.putObject("weights");
        ObjectNode slowdown = root.putObject("predicted_slowdown");
        for (int i = 0; i < names.size(); i++) {
            weights.put(names.get(i), 100 * s.weights()[i]);
            slowdown.put(names.get(i), models.get(i).slowdown(s.weights()[i]));
        }
        root.put("objective", s.objective());
        return mapper.writeValueAsString(root);
    }
}
