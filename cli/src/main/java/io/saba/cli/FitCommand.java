package io.saba.cli;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.Sample;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code saba fit}: fits a sensitivity model to profiling samples and optionally stores it in a table. */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit a polynomial sensitivity model to (bandwidth_percent, slowdown) samples.")
final class FitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--samples", required = true, paramLabel = "FILE.csv",
            description = "CSV with header bandwidth_percent,slowdown; one row per run.")
    Path samples;

    @Option(names = "--workload", required = true, description = "Workload name (the table key).")
    String workload;

    @Option(names = "--degree", defaultValue = "3", description = "Polynomial degree 1-3 (default ${DEFAULT-VALUE}).")
    int degree;

    @Option(names = "--out", paramLabel = "TABLE", description = "Sensitivity table to create or update.")
    Path out;

    @Option(names = "--nodes", description = "Profiling context: number of nodes.")
    Integer nodes;

    @Option(names = "--dataset", description = "Profiling context: dataset size.")
    String dataset;

    @Option(names = "--fabric", description = "Profiling context: fabric and link rate.")
    String fabric;

    @Option(names = "--source", defaultValue = "measured",
            description = "Provenance recorded in the table (default ${DEFAULT-VALUE}).")
    String source;

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        FittedModel fit = ModelFitter.fit(readSamples(samples), degree);
        o.printf("%s: %s  (R² = %.4f, %d samples)%n", SensitivityTable.key(workload), fit.model(), fit.r2(),
                fit.samples().size());
        if (out != null) {
            SensitivityTable table = Files.exists(out)
                    ? SensitivityTableCodec.parse(Files.readString(out), out.toString())
                    : SensitivityTable.empty();
            ProfilingContext ctx = new ProfilingContext(nodes, dataset, LocalDate.now().toString(), fabric, source);
            table = table.with(TableEntry.of(workload, fit, ctx));
            Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
            Files.writeString(tmp, SensitivityTableCodec.toJson(table));
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            o.printf("wrote %s (%d workloads)%n", out, table.entries().size());
        }
        o.flush();
        return 0;
    }

    /** Reads the samples CSV; errors name the file and the line. */
    static List<Sample> readSamples(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !lines.get(0).trim().replace(" ", "").equalsIgnoreCase("bandwidth_percent,slowdown")) {
            throw new IllegalArgumentException(file + ": line 1 must be the header 'bandwidth_percent,slowdown'");
        }
        List<Sample> samples = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(",");
            if (f.length != 2) {
                throw new IllegalArgumentException(file + ": line " + (i + 1) + " '" + line + "' needs 2 fields");
            }
            try {
                Sample s = new Sample(Double.parseDouble(f[0].trim()), Double.parseDouble(f[1].trim()));
                String defect = s.defect();
                if (defect != null) {
                    throw new IllegalArgumentException(file + ": line " + (i + 1) + " sample " + s + " " + defect);
                }
                samples.add(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + ": line " + (i + 1) + " '" + line + "' is not two numbers", e);
            }
        }
        return samples;
    }
}
