package io.saba.controller.topology.infiniband;

import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads {@code ibtracert SLID DLID}: the switch output ports in order (the oracle the resolver is held to). */
final class Tracert {
    private static final Pattern FROM = Pattern.compile("^From \\w+ \\{0x([0-9a-f]+)\\}");
    private static final Pattern HOP = Pattern.compile("^\\[(\\d+)\\] -> (\\w+) port \\{0x([0-9a-f]+)\\}");

    private Tracert() {
    }

    static List<PortId> ports(String text, Map<Long, String> switchNames) {
        List<PortId> out = new ArrayList<>();
        Long prev = null;
        for (String line : text.split("\n")) {
            Matcher f = FROM.matcher(line.strip());
            if (f.find()) {
                prev = Long.parseUnsignedLong(f.group(1), 16);
                continue;
            }
            Matcher h = HOP.matcher(line.strip());
            if (h.find() && prev != null) {
                String sw = switchNames.get(prev);
                if (sw != null) {
                    out.add(new PortId(sw, Integer.parseInt(h.group(1))));
                }
                prev = Long.parseUnsignedLong(h.group(3), 16);
            }
        }
        return out;
    }
}
