package io.saba.cli;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.ModelSelector;
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
import java.util.Locale;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code saba fit}: fits every model family to profiling samples, prints each candidate's held-out error and R²,
 * chooses one and optionally stores it (with the candidates) in a table.
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "Fit sensitivity models to (bandwidth_percent, slowdown) samples and choose one by "
                + "leave-one-level-out cross-validation.")
final class FitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Input input;

    static final class Input {
        @Option(names = "--samples", paramLabel = "FILE.csv",
                description = "CSV with header bandwidth_percent,slowdown; one row per run (needs --workload).")
        Path samples;

        @Option(names = "--refit", paramLabel = "TABLE", description = "Refit the workloads of a sensitivity table "
                + "from the samples it stores, keeping each entry's context (all workloads, or --workload).")
        Path refit;
    }

    @Option(names = "--workload", description = "Workload name (the table key).")
    String workload;

    @Option(names = "--family", paramLabel = "FAMILY", description = "auto (default: the lowest cross-validated "
            + "error among non-increasing candidates), poly (the paper's least-squares polynomial), monotone-poly "
            + "(a polynomial constrained to fall with bandwidth) or inverse (a + c/b: compute + transfer).")
    String family;

    @Option(names = "--degree", description = "Polynomial degree 1-3 for the polynomial families. Given alone, it "
            + "selects the paper's method (--family poly).")
    Integer degree;

    @Option(names = "--out", paramLabel = "TABLE", description = "Sensitivity table to create or update.")
    Path out;

    @Option(names = "--note", description = "Table note for readers of the file (replaces the table's note).")
    String note;

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
        ModelChoice choice = choice(family, degree);
        List<TableEntry> fitted = new ArrayList<>();
        if (input.samples != null) {
            if (workload == null || workload.isBlank()) {
                throw new IllegalArgumentException("--samples needs --workload (the table key)");
            }
            ProfilingContext ctx = new ProfilingContext(nodes, dataset, LocalDate.now().toString(), fabric, source);
            fitted.add(TableEntry.of(workload, ModelSelector.select(readSamples(input.samples), choice), ctx));
        } else {
            SensitivityTable from = SensitivityTableCodec.parse(Files.readString(input.refit), input.refit.toString());
            for (TableEntry e : from.entries().values()) {
                if (workload == null || e.workload().equals(SensitivityTable.key(workload))) {
                    fitted.add(TableEntry.of(e.workload(), refit(e, choice, input.refit), e.context()));
                }
            }
            if (fitted.isEmpty()) {
                throw new IllegalArgumentException(input.refit + " has no workload '" + workload + "' (known: "
                        + String.join(", ", from.entries().keySet()) + ")");
            }
        }
        for (TableEntry e : fitted) {
            FittedModel fit = e.fit();
            o.printf("%s: %s  (%s, CV RMSE %s, R² = %.4f, %d samples)%n", SensitivityTable.key(e.workload()),
                    fit.model(), fit.label(),
                    number(fit.cvRmse()), fit.r2(), fit.samples().size());
            o.print(candidates(e.selection()));
        }
        if (out != null) {
            SensitivityTable table = Files.exists(out)
                    ? SensitivityTableCodec.parse(Files.readString(out), out.toString())
                    : SensitivityTable.empty();
            for (TableEntry e : fitted) {
                table = table.with(e);
            }
            if (note != null) {
                table = table.withNote(note);
            }
            Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
            Files.writeString(tmp, SensitivityTableCodec.toJson(table));
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
            o.printf("wrote %s (%d workloads)%n", out, table.entries().size());
        }
        o.flush();
        return 0;
    }

    private static ModelSelection refit(TableEntry e, ModelChoice choice, Path table) {
        if (e.samples().isEmpty()) {
            throw new IllegalArgumentException(table + ": workload '" + e.workload() + "' stores no samples to refit");
        }
        try {
            return ModelSelector.select(e.samples(), choice);
        } catch (IllegalArgumentException cannot) {
            throw new IllegalArgumentException(table + ": workload '" + e.workload() + "': " + cannot.getMessage(), cannot);
        }
    }

    /** --family and --degree: neither means auto; a degree alone keeps its old meaning, the paper's polynomial. */
    static ModelChoice choice(String family, Integer degree) {
        return family == null && degree != null ? ModelChoice.paper(degree) : ModelChoice.parse(family, degree);
    }

    /** One line per candidate: family and degree, R², cross-validated RMSE, monotone, and which was chosen how. */
    static String candidates(ModelSelection s) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  %-18s %8s %9s  %s%n", "candidate", "R²",
                "CV RMSE", "monotone"));
        for (int i = 0; i < s.candidates().size(); i++) {
            FittedModel c = s.candidates().get(i);
            b.append(String.format(Locale.ROOT, "  %-18s %8.4f %9s  %-8s %s%n", c.label(), c.r2(), number(c.cvRmse()),
                    c.monotone() ? "yes" : "no", i == s.chosenIndex() ? "<- chosen (" + s.choice() + ": "
                            + s.criterion() + ")" : ""));
        }
        return b.toString();
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.4f", v);
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
