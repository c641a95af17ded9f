package io.saba.controller.topology.infiniband;

import io.saba.controller.topology.infiniband.IbSubnet.End;
import io.saba.controller.topology.infiniband.IbSubnet.Node;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the text of {@code ibnetdiscover} (its default topology format, the one ibsim also reads) and
 * {@code dump_fts} (every switch's unicast linear forwarding table) into an {@link IbSubnet}. Lines it does not
 * know are skipped, so vendor additions do not break it; a file with no node at all is an error.
 */
public final class DiscoveryParser {
    private static final Pattern NODE = Pattern.compile(
            "^(Switch|Ca|Rt)\\s+(\\d+)\\s+\"([SHR])-([0-9a-fA-F]+)\"\\s*(?:#\\s*\"(.*?)\"(.*))?$");
    private static final Pattern PORT = Pattern.compile(
            "^\\[(\\d+)\\](?:\\[ext \\d+\\])?(?:\\(([0-9a-fA-F]+)\\))?\\s+\"([SHR])-([0-9a-fA-F]+)\"\\[(\\d+)\\]"
                    + "(?:\\[ext \\d+\\])?(?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#(.*))?$");
    private static final Pattern LID_LMC = Pattern.compile("lid (\\d+) lmc (\\d+)");
    private static final Pattern FTS_HEADER = Pattern.compile("^Unicast lids .* guid 0x([0-9a-fA-F]+)");
    private static final Pattern FTS_ENTRY = Pattern.compile("^0x([0-9a-fA-F]+)\\s+(\\d+)\\s*:");

    private DiscoveryParser() {
    }

    /**
     * @param netdiscover the output of {@code ibnetdiscover}
     * @param fts         the output of {@code dump_fts} (may be empty: no forwarding tables, no paths)
     */
    public static IbSubnet parse(String netdiscover, String fts, String source) {
        Map<Long, Node> nodes = new HashMap<>();
        Map<End, End> cables = new HashMap<>();
        Map<End, int[]> caLids = new HashMap<>();
        Map<End, Long> portGuids = new HashMap<>();
        Node current = null;
        int lineNo = 0;
        for (String raw : netdiscover.split("\n")) {
            lineNo++;
            String line = raw.strip();
            Matcher m = NODE.matcher(line);
            if (m.matches()) {
                boolean sw = m.group(1).equals("Switch");
                long guid = Long.parseUnsignedLong(m.group(4), 16);
                String desc = m.group(5) == null ? "" : m.group(5);
                int lid = 0;
                if (sw && m.group(6) != null) {
                    Matcher l = LID_LMC.matcher(m.group(6));
                    lid = l.find() ? Integer.parseInt(l.group(1)) : 0;
                }
                current = new Node(guid, sw, desc, Integer.parseInt(m.group(2)), lid);
                nodes.put(guid, current);
                continue;
            }
            Matcher p = PORT.matcher(line);
            if (p.matches()) {
                if (current == null) {
                    throw new IllegalArgumentException(source + ": line " + lineNo + ": a port before any node");
                }
                End here = new End(current.guid(), Integer.parseInt(p.group(1)));
                End there = new End(Long.parseUnsignedLong(p.group(4), 16), Integer.parseInt(p.group(5)));
                cables.put(here, there);
                cables.put(there, here);
                if (!current.isSwitch()) {
                    if (p.group(2) != null) {
                        portGuids.put(here, Long.parseUnsignedLong(p.group(2), 16));
                    }
                    Matcher l = LID_LMC.matcher(p.group(7) == null ? "" : p.group(7));
                    if (l.find()) {
                        caLids.put(here, new int[] {Integer.parseInt(l.group(1)), Integer.parseInt(l.group(2))});
                    }
                }
            }
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException(source + ": no InfiniBand node found (is this ibnetdiscover output?)");
        }
        return new IbSubnet(nodes, cables, forwardingTables(fts), caLids, portGuids);
    }

    /** {@code dump_fts} text → switch guid → (LID → output port). */
    static Map<Long, Map<Integer, Integer>> forwardingTables(String fts) {
        Map<Long, Map<Integer, Integer>> out = new HashMap<>();
        Map<Integer, Integer> table = null;
        for (String raw : fts.split("\n")) {
            String line = raw.strip();
            Matcher h = FTS_HEADER.matcher(line);
            if (h.find()) {
                table = out.computeIfAbsent(Long.parseUnsignedLong(h.group(1), 16), g -> new HashMap<>());
                continue;
            }
            Matcher e = FTS_ENTRY.matcher(line);
            if (e.find() && table != null) {
                table.put(Integer.parseInt(e.group(1), 16), Integer.parseInt(e.group(2)));
            }
        }
        return out;
    }
}
