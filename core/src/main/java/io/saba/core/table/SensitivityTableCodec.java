package io.saba.core.table;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelFamily;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads and writes the sensitivity table's JSON form (format "saba-sensitivity-table", versions 1 and 2; see
 * docs/sensitivity-table.md). Parsing is strict: every problem is reported with the source name, the workload
 * and the field, so an operator can fix the file without guessing.
 *
 * <p>Version 2 adds the inverse family, whose entries have parameters instead of coefficients. A table whose models
 * are all polynomials is still written as version 1 — its extra fields (family, cross-validated error, the
 * selection) are ones version-1 readers ignore — so older Saba builds keep reading it; a table with an inverse
 * model is version 2, which those builds refuse rather than misread.
 */
public final class SensitivityTableCodec {
    public static final String FORMAT = "saba-sensitivity-table";
    /** The newest version this code reads and writes. */
    public static final int VERSION = 2;
    /** What tables of polynomial models are written as. */
    static final int POLYNOMIAL_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SensitivityTableCodec() {
    }

    /**
     * @param json   the file's content
     * @param source names the input in errors (usually the file path)
     */
    public static SensitivityTable parse(String json, String source) {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            throw new MalformedTableException(source + ": not valid JSON"
                    + (loc != null ? " at line " + loc.getLineNr() + ", column " + loc.getColumnNr() : "")
                    + ": " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new MalformedTableException(source + ": expected a JSON object at the top level");
        }
        String format = root.path("format").asText(null);
        if (!FORMAT.equals(format)) {
            throw new MalformedTableException(source + ": field 'format' must be \"" + FORMAT + "\", got " + root.get("format"));
        }
        JsonNode version = root.get("version");
        if (version == null || !version.canConvertToInt() || version.asInt() < POLYNOMIAL_VERSION
                || version.asInt() > VERSION) {
            throw new MalformedTableException(source + ": field 'version': this Saba reads versions "
                    + POLYNOMIAL_VERSION + " to " + VERSION + ", the file says " + version);
        }
        JsonNode workloads = root.get("workloads");
        if (workloads == null || !workloads.isObject()) {
            throw new MalformedTableException(source + ": field 'workloads' must be an object of workload → model");
        }
        Map<String, TableEntry> entries = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = workloads.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = SensitivityTable.key(e.getKey());
            if (key.isEmpty()) {
                throw new MalformedTableException(source + ": a workload has an empty name");
            }
            if (entries.containsKey(key)) {
                throw new MalformedTableException(source + ": workload '" + key + "' appears twice (names ignore case)");
            }
            entries.put(key, entry(e.getValue(), source + ": workload '" + key + "'", key));
        }
        JsonNode note = root.get("note");
        return SensitivityTable.of(entries, note == null || note.isNull() ? null : note.asText());
    }

    private static TableEntry entry(JsonNode node, String where, String workload) {
        if (!node.isObject()) {
            throw new MalformedTableException(where + ": expected an object");
        }
        ModelFamily family = family(node, where);
        SensitivityModel model = model(node, family, where);
        double r2 = node.has("r2") ? number(node.get("r2"), where + ": field 'r2'") : Double.NaN;
        if (r2 > 1 + 1e-9) {
            throw new MalformedTableException(where + ": field 'r2' is " + r2 + ", above 1");
        }
        List<Sample> samples = new ArrayList<>();
        JsonNode samplesNode = node.get("samples");
        if (samplesNode != null && !samplesNode.isNull()) {
            if (!samplesNode.isArray()) {
                throw new MalformedTableException(where + ": field 'samples' must be an array");
            }
            for (int i = 0; i < samplesNode.size(); i++) {
                String at = where + ": field 'samples[" + i + "]'";
                JsonNode s = samplesNode.get(i);
                Sample sample = new Sample(number(s.get("bandwidth_percent"), at + ".bandwidth_percent"),
                        number(s.get("slowdown"), at + ".slowdown"));
                String defect = sample.defect();
                if (defect != null) {
                    throw new MalformedTableException(at + " " + defect);
                }
                samples.add(sample);
            }
        }
        double cv = node.hasNonNull("cv_rmse") ? nonNegative(node.get("cv_rmse"), where + ": field 'cv_rmse'") : Double.NaN;
        boolean monotone = node.has("monotone") ? bool(node.get("monotone"), where + ": field 'monotone'")
                : model.isNonIncreasingOn(TableEntry.lowestShare(samples), 1.0);
        FittedModel fit = new FittedModel(family, model, r2, cv, monotone, samples);
        return new TableEntry(workload, fit, context(node.get("context"), where),
                selection(node.get("selection"), where + ": field 'selection'"),
                traffic(node.get("traffic"), where + ": field 'traffic'"));
    }

    /** "traffic": {"interval_seconds": 0.1, "utilisation": [...]}; absent or null: no record. */
    private static TrafficRecord traffic(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject() || !node.has("interval_seconds") || !node.path("utilisation").isArray()) {
            throw new MalformedTableException(where + " must be {\"interval_seconds\": s, \"utilisation\": [...]}");
        }
        double interval = number(node.get("interval_seconds"), where + ".interval_seconds");
        JsonNode u = node.get("utilisation");
        double[] values = new double[u.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = number(u.get(i), where + ".utilisation[" + i + "]");
        }
        try {
            return new TrafficRecord(interval, values);
        } catch (IllegalArgumentException e) {
            throw new MalformedTableException(where + ": " + e.getMessage());
        }
    }

    /** "family", absent in version-1 tables, which hold the paper's polynomials only. */
    private static ModelFamily family(JsonNode node, String where) {
        JsonNode f = node.get("family");
        if (f == null || f.isNull()) {
            return ModelFamily.POLY;
        }
        try {
            return ModelFamily.parse(f.isTextual() ? f.asText() : f.toString());
        } catch (IllegalArgumentException e) {
            throw new MalformedTableException(where + ": field 'family': " + e.getMessage());
        }
    }

    /** A polynomial family's "degree" and "coefficients", or the inverse family's "parameters" {a, c}. */
    private static SensitivityModel model(JsonNode node, ModelFamily family, String where) {
        if (!family.polynomial()) {
            JsonNode p = node.get("parameters");
            if (p == null || !p.isObject()) {
                throw new MalformedTableException(where + ": field 'parameters' must be an object {\"a\": ..., \"c\": ...} "
                        + "for family " + family + ", got " + p);
            }
            double a = number(p.get("a"), where + ": field 'parameters.a'");
            double c = nonNegative(p.get("c"), where + ": field 'parameters.c'");
            return SensitivityModel.inverse(a, c);
        }
        JsonNode degreeNode = node.get("degree");
        if (degreeNode == null || !degreeNode.isInt()
                || degreeNode.asInt() < 1 || degreeNode.asInt() > SensitivityModel.MAX_DEGREE) {
            throw new MalformedTableException(where + ": field 'degree' must be an integer from 1 to "
                    + SensitivityModel.MAX_DEGREE + ", got " + degreeNode);
        }
        int degree = degreeNode.asInt();
        JsonNode coefficients = node.get("coefficients");
        if (coefficients == null || !coefficients.isArray() || coefficients.size() != degree + 1) {
            throw new MalformedTableException(where + ": field 'coefficients' must be an array of " + (degree + 1)
                    + " numbers (c0..c" + degree + "), got " + coefficients);
        }
        double[] c = new double[degree + 1];
        for (int i = 0; i <= degree; i++) {
            c[i] = number(coefficients.get(i), where + ": field 'coefficients[" + i + "]'");
        }
        return SensitivityModel.of(c);
    }

    /** The candidates and the choice; null when the entry has none. Candidates carry no samples. */
    private static ModelSelection selection(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject() || !node.path("candidates").isArray() || node.get("candidates").isEmpty()) {
            throw new MalformedTableException(where + " must be an object with a non-empty array 'candidates'");
        }
        ModelChoice choice;
        try {
            JsonNode degree = node.get("degree");
            choice = ModelChoice.parse(node.path("choice").asText("auto"),
                    degree == null || degree.isNull() ? null : degree.asInt());
        } catch (IllegalArgumentException e) {
            throw new MalformedTableException(where + ".choice: " + e.getMessage());
        }
        List<FittedModel> candidates = new ArrayList<>();
        int chosen = -1;
        for (int i = 0; i < node.get("candidates").size(); i++) {
            JsonNode c = node.get("candidates").get(i);
            String at = where + ".candidates[" + i + "]";
            if (!c.isObject()) {
                throw new MalformedTableException(at + " must be an object");
            }
            ModelFamily family = family(c, at);
            SensitivityModel model = model(c, family, at);
            double r2 = c.has("r2") ? number(c.get("r2"), at + ".r2") : Double.NaN;
            double cv = c.hasNonNull("cv_rmse") ? nonNegative(c.get("cv_rmse"), at + ".cv_rmse") : Double.NaN;
            boolean monotone = c.has("monotone") && bool(c.get("monotone"), at + ".monotone");
            candidates.add(new FittedModel(family, model, r2, cv, monotone, List.of()));
            if (c.path("chosen").asBoolean(false)) {
                if (chosen >= 0) {
                    throw new MalformedTableException(where + ": candidates " + chosen + " and " + i + " are both chosen");
                }
                chosen = i;
            }
        }
        if (chosen < 0) {
            throw new MalformedTableException(where + ": no candidate has \"chosen\": true");
        }
        return new ModelSelection(choice, candidates, chosen, node.path("criterion").asText(""));
    }

    private static boolean bool(JsonNode n, String where) {
        if (!n.isBoolean()) {
            throw new MalformedTableException(where + " must be true or false, got " + n);
        }
        return n.asBoolean();
    }

    private static double nonNegative(JsonNode n, String where) {
        double v = number(n, where);
        if (v < 0) {
            throw new MalformedTableException(where + " must be ≥ 0, got " + v);
        }
        return v;
    }

    private static ProfilingContext context(JsonNode node, String where) {
        if (node == null || node.isNull()) {
            return ProfilingContext.UNKNOWN;
        }
        if (!node.isObject()) {
            throw new MalformedTableException(where + ": field 'context' must be an object");
        }
        Integer nodes = null;
        if (node.hasNonNull("nodes")) {
            if (!node.get("nodes").isInt() || node.get("nodes").asInt() < 1) {
                throw new MalformedTableException(where + ": field 'context.nodes' must be a positive integer, got "
                        + node.get("nodes"));
            }
            nodes = node.get("nodes").asInt();
        }
        Map<Integer, Double> r2ByDegree = new TreeMap<>();
        JsonNode fits = node.get("r2_by_degree");
        if (fits != null && !fits.isNull()) {
            if (!fits.isObject()) {
                throw new MalformedTableException(where + ": field 'context.r2_by_degree' must be an object of "
                        + "degree → R², got " + fits);
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = fits.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                String at = where + ": field 'context.r2_by_degree." + f.getKey() + "'";
                int k;
                try {
                    k = Integer.parseInt(f.getKey());
                } catch (NumberFormatException e) {
                    throw new MalformedTableException(at + ": the key must be a degree 1 to "
                            + SensitivityModel.MAX_DEGREE);
                }
                if (k < 1 || k > SensitivityModel.MAX_DEGREE) {
                    throw new MalformedTableException(at + ": the key must be a degree 1 to "
                            + SensitivityModel.MAX_DEGREE);
                }
                r2ByDegree.put(k, number(f.getValue(), at));
            }
        }
        return new ProfilingContext(nodes, text(node, "dataset_size"), text(node, "date"), text(node, "fabric"),
                text(node, "source"), text(node, "machine"), text(node, "settings"), r2ByDegree, method(node, where));
    }

    /** {@code method} ("cap" or "corun"), with a corun entry's {@code competitor} and {@code competitor_factor}. */
    private static ProfilingMethod method(JsonNode node, String where) {
        if (!node.hasNonNull("method")) {
            if (node.hasNonNull("competitor")) {
                throw new MalformedTableException(where + ": field 'context.competitor' needs 'context.method': "
                        + "\"corun\"");
            }
            return null;
        }
        try {
            ProfilingMethod.Kind kind = ProfilingMethod.Kind.parse(node.get("method").asText(),
                    where + ": field 'context.method'");
            if (kind == ProfilingMethod.Kind.CAP) {
                return new ProfilingMethod(kind, text(node, "competitor"), null);
            }
            Double factor = null;
            if (node.hasNonNull("competitor_factor")) {
                factor = number(node.get("competitor_factor"), where + ": field 'context.competitor_factor'");
            }
            return new ProfilingMethod(kind, text(node, "competitor"), factor);
        } catch (MalformedTableException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new MalformedTableException(e.getMessage().startsWith(where) ? e.getMessage()
                    : where + ": field 'context': " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static double number(JsonNode n, String where) {
        if (n == null || !n.isNumber() || !Double.isFinite(n.asDouble())) {
            throw new MalformedTableException(where + " must be a finite number, got " + n);
        }
        return n.asDouble();
    }

    /** The table as JSON, workloads sorted, fields in a fixed order so files diff cleanly. */
    public static String toJson(SensitivityTable table) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", table.entries().values().stream().allMatch(SensitivityTableCodec::polynomialOnly)
                ? POLYNOMIAL_VERSION : VERSION);
        root.put("bandwidth", "fraction of the link: D(b) = c0 + c1 b + c2 b^2 + c3 b^3 (families poly, monotone-poly)"
                + " or a + c/b (family inverse), 0 < b <= 1");
        if (table.note() != null) {
            root.put("note", table.note());
        }
        ObjectNode workloads = root.putObject("workloads");
        for (TableEntry e : table.entries().values()) {
            ObjectNode w = workloads.putObject(e.workload());
            putModel(w, e.fit());
            ArrayNode samples = w.putArray("samples");
            for (Sample s : e.samples()) {
                samples.addObject().put("bandwidth_percent", s.bandwidthPercent()).put("slowdown", s.slowdown());
            }
            if (e.selection() != null) {
                putSelection(w.putObject("selection"), e.selection());
            }
            if (e.traffic() != null) {
                ObjectNode t = w.putObject("traffic");
                t.put("interval_seconds", e.traffic().intervalSeconds());
                // for readers: the share of the run the samples say it waits on the network (recomputed on load;
                // absent for a corun-profiled entry, which gives the co-run predictor no profile)
                if (e.corunProfile() != null) {
                    t.put("network_bound", e.corunProfile().networkBound());
                }
                ArrayNode u = t.putArray("utilisation");
                for (double v : e.traffic().utilisation()) {
                    u.add(Math.round(v * 10_000) / 10_000.0);
                }
            }
            ProfilingContext ctx = e.context();
            ObjectNode cn = w.putObject("context");
            if (ctx.nodes() != null) {
                cn.put("nodes", ctx.nodes());
            }
            putIfPresent(cn, "dataset_size", ctx.datasetSize());
            putIfPresent(cn, "date", ctx.date());
            putIfPresent(cn, "fabric", ctx.fabric());
            putIfPresent(cn, "source", ctx.source());
            putIfPresent(cn, "machine", ctx.machine());
            putIfPresent(cn, "settings", ctx.settings());
            if (ctx.method() != null) {
                cn.put("method", ctx.method().kind().label());
                putIfPresent(cn, "competitor", ctx.method().competitor());
                if (ctx.method().competitorFactor() != null) {
                    cn.put("competitor_factor", ctx.method().competitorFactor());
                }
            }
            if (!ctx.r2ByDegree().isEmpty()) {
                ObjectNode fits = cn.putObject("r2_by_degree");
                ctx.r2ByDegree().forEach((k, v) -> fits.put(Integer.toString(k), v));
            }
        }
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a sensitivity table", e);
        }
    }

    private static boolean polynomialOnly(TableEntry e) {
        return e.model().isPolynomial()
                && (e.selection() == null || e.selection().candidates().stream().allMatch(c -> c.model().isPolynomial()));
    }

    /** family, the model's numbers, r2, cv_rmse, monotone: the fields an entry and a candidate share. */
    private static void putModel(ObjectNode w, FittedModel fit) {
        w.put("family", fit.family().id());
        if (fit.family().polynomial()) {
            w.put("degree", fit.model().degree());
            ArrayNode c = w.putArray("coefficients");
            for (double v : fit.model().coefficients()) {
                c.add(v);
            }
        } else {
            w.putObject("parameters").put("a", fit.model().coefficient(0)).put("c", fit.model().inverseCoefficient());
        }
        if (!Double.isNaN(fit.r2())) {
            w.put("r2", fit.r2());
        }
        if (!Double.isNaN(fit.cvRmse())) {
            w.put("cv_rmse", fit.cvRmse());
        }
        w.put("monotone", fit.monotone());
    }

    private static void putSelection(ObjectNode s, ModelSelection selection) {
        s.put("choice", selection.choice().family() == null ? "auto" : selection.choice().family().id());
        if (selection.choice().degree() != null) {
            s.put("degree", selection.choice().degree());
        }
        s.put("criterion", selection.criterion());
        ArrayNode candidates = s.putArray("candidates");
        for (int i = 0; i < selection.candidates().size(); i++) {
            ObjectNode c = candidates.addObject();
            putModel(c, selection.candidates().get(i));
            if (i == selection.chosenIndex()) {
                c.put("chosen", true);
            }
        }
    }

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
