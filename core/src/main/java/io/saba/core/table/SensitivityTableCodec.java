package io.saba.core.table;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads and writes the sensitivity table's JSON form (format "saba-sensitivity-table", version 1; see
 * docs/sensitivity-table.md). Parsing is strict: every problem is reported with the source name, the workload
 * and the field, so an operator can fix the file without guessing.
 */
public final class SensitivityTableCodec {
    public static final String FORMAT = "saba-sensitivity-table";
    public static final int VERSION = 1;

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
        if (version == null || !version.canConvertToInt() || version.asInt() != VERSION) {
            throw new MalformedTableException(source + ": field 'version': this Saba reads version " + VERSION
                    + ", the file says " + version);
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
        return new TableEntry(workload, SensitivityModel.of(c), r2, samples, context(node.get("context"), where));
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
                text(node, "source"), text(node, "machine"), text(node, "settings"), r2ByDegree);
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
        root.put("version", VERSION);
        root.put("bandwidth", "fraction of the link: D(b) = c0 + c1 b + c2 b^2 + c3 b^3, 0 < b <= 1");
        if (table.note() != null) {
            root.put("note", table.note());
        }
        ObjectNode workloads = root.putObject("workloads");
        for (TableEntry e : table.entries().values()) {
            ObjectNode w = workloads.putObject(e.workload());
            w.put("degree", e.model().degree());
            ArrayNode c = w.putArray("coefficients");
            for (double v : e.model().coefficients()) {
                c.add(v);
            }
            if (!Double.isNaN(e.r2())) {
                w.put("r2", e.r2());
            }
            ArrayNode samples = w.putArray("samples");
            for (Sample s : e.samples()) {
                samples.addObject().put("bandwidth_percent", s.bandwidthPercent()).put("slowdown", s.slowdown());
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

    private static void putIfPresent(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
