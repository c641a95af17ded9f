package io.saba.controller.fabric.infiniband;

import io.saba.controller.topology.infiniband.IbTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code smpquery vlarb} and {@code smpquery sl2vl} print, read back: the independent witness of the tests and
 * of the enforcement benchmark (a tool of infiniband-diags, not this module's SMP code).
 */
public final class SmpQuery {
    private SmpQuery() {
    }

    /** The low and the high table, as printed (entry by entry). */
    public record VlArb(List<VlArbPlan.Entry> low, List<VlArbPlan.Entry> high) {
    }

    public static VlArb vlarb(IbTools tools, int lid, int port) {
        String out = tools.run("smpquery", "vlarb", String.valueOf(lid), String.valueOf(port));
        List<List<VlArbPlan.Entry>> tables = new ArrayList<>();
        List<Integer> vls = null;
        for (String line : out.split("\n")) {
            if (line.startsWith("VL")) {
                vls = cells(line);
            } else if (line.startsWith("WEIGHT") && vls != null) {
                List<Integer> w = cells(line);
                List<VlArbPlan.Entry> t = new ArrayList<>();
                for (int i = 0; i < w.size(); i++) {
                    t.add(new VlArbPlan.Entry(vls.get(i), w.get(i)));
                }
                tables.add(t);
                vls = null;
            }
        }
        if (tables.size() != 2) {
            throw new IllegalStateException("smpquery vlarb printed " + tables.size() + " tables:\n" + out);
        }
        return new VlArb(tables.get(0), tables.get(1));
    }

    private static List<Integer> cells(String line) {
        List<Integer> out = new ArrayList<>();
        String[] parts = line.substring(line.indexOf(':') + 1).split("\\|");
        for (String p : parts) {
            if (!p.isBlank()) {
                out.add(Integer.decode(p.strip()));
            }
        }
        return out;
    }

    /** Input port → VL of SL 0..15 for one output port. */
    public static Map<Integer, List<Integer>> sl2vl(IbTools tools, int lid, int outPort) {
        String out = tools.run("smpquery", "sl2vl", String.valueOf(lid), String.valueOf(outPort));
        Map<Integer, List<Integer>> t = new TreeMap<>();
        for (String line : out.split("\n")) {
            if (line.startsWith("ports: in")) {
                int in = Integer.parseInt(line.replaceAll("ports: in\\s+(\\d+),.*", "$1"));
                int o = Integer.parseInt(line.replaceAll(".*out\\s+(\\d+):.*", "$1"));
                if (o == outPort) {
                    t.put(in, cells(line.substring(line.indexOf("out"))));
                }
            }
        }
        return t;
    }

    /** The non-zero entries' total weight per VL. */
    public static Map<Integer, Integer> weightPerVl(List<VlArbPlan.Entry> table) {
        Map<Integer, Integer> out = new TreeMap<>();
        table.forEach(e -> {
            if (e.weight() > 0) {
                out.merge(e.vl(), e.weight(), Integer::sum);
            }
        });
        return out;
    }
}
