package io.saba.controller.fabric.linux;

import io.saba.controller.fabric.linux.HtbPlan.HtbClass;
import io.saba.controller.shell.CommandException;
import io.saba.controller.shell.CommandResult;
import io.saba.controller.shell.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One port's device seen through {@code tc}: reads which of our classes and filters exist, and moves the device
 * to a plan with the least disruption (classes changed in place, filters replaced, leftovers removed last).
 */
final class TcDevice {
    /** u32 filters live at this preference; their handles are 800::(dscp+1) in u32's default hash table. */
    static final String FILTER_PRIO = "1";
    private static final Pattern FILTER_HANDLE = Pattern.compile("\\bfh 800::([0-9a-f]+)\\b");
    private static final Pattern ROOT_HTB = Pattern.compile("(?m)^qdisc htb 1: root\\b");

    private final LinuxPort port;
    private final CommandRunner shell;

    TcDevice(LinuxPort port, CommandRunner shell) {
        this.port = port;
        this.shell = shell;
    }

    LinuxPort port() {
        return port;
    }

    /** Whether the device's root qdisc is already an HTB with our handle (ours, or the testbed's plain link). */
    boolean hasHtbRoot() {
        return ROOT_HTB.matcher(shell.check(port.tc("qdisc", "show", "dev", port.device(), "root"))).find();
    }

    /** Class ids present, e.g. "1:1", "1:10", "1:20". */
    Set<String> classIds() {
        Set<String> ids = new TreeSet<>();
        for (String line : shell.check(port.tc("class", "show", "dev", port.device())).split("\n")) {
            String[] t = line.trim().split("\\s+");
            if (t.length >= 3 && t[0].equals("class") && t[1].equals("htb")) {
                ids.add(t[2]);
            }
        }
        return ids;
    }

    /** Node ids of our u32 filters (800::N), i.e. DSCP + 1. */
    Set<Integer> filterNodes() {
        Set<Integer> nodes = new TreeSet<>();
        String out = shell.check(port.tc("filter", "show", "dev", port.device(), "parent", "1:"));
        Matcher m = FILTER_HANDLE.matcher(out);
        while (m.find()) {
            nodes.add(Integer.parseInt(m.group(1), 16));
        }
        return nodes;
    }

    /** Creates the root and the link-rate class (replacing whatever root qdisc the device had). */
    void installRoot(long linkBps) {
        run(port.tc("qdisc", "replace", "dev", port.device(), "root", "handle", "1:", "htb",
                "default", Integer.toHexString(HtbPlan.NON_SABA_MINOR)));
        run(port.tc("class", "replace", "dev", port.device(), "parent", "1:", "classid", "1:1", "htb",
                "rate", linkBps + "bit", "ceil", linkBps + "bit", "quantum", Integer.toString(HtbPlan.BASE_QUANTUM)));
    }

    /** Deletes the root qdisc: the kernel's default comes back. A missing root is not an error. */
    void removeRoot() {
        CommandResult r = shell.run(port.tc("qdisc", "del", "dev", port.device(), "root"));
        if (!r.ok() && hasHtbRoot()) {
            throw new CommandException(r);
        }
    }

    /**
     * Moves an HTB-rooted device to {@code plan}. Order matters for live traffic: the link class and every class
     * the plan keeps are changed in place (their queues and packets survive), new classes are added before any
     * filter points at them, filters are replaced atomically one by one, and only then are filters and classes
     * the plan dropped deleted. Throws on the first failing command; the caller rolls back.
     */
    void converge(HtbPlan plan) {
        Set<String> classes = classIds();
        String link = plan.linkBps() + "bit";
        run(port.tc("class", classes.contains("1:1") ? "change" : "add", "dev", port.device(), "parent", "1:",
                "classid", "1:1", "htb", "rate", link, "ceil", link, "quantum", Integer.toString(HtbPlan.BASE_QUANTUM)));
        List<HtbClass> wanted = new ArrayList<>();
        wanted.add(plan.nonSaba());
        wanted.addAll(plan.queues());
        Set<String> wantedIds = new TreeSet<>();
        for (HtbClass c : wanted) {
            wantedIds.add(c.classId());
            run(port.tc("class", classes.contains(c.classId()) ? "change" : "add", "dev", port.device(),
                    "parent", "1:1", "classid", c.classId(), "htb", "rate", c.rateBps() + "bit", "ceil", link,
                    "quantum", Integer.toString(c.quantum())));
            // Replacing a pfifo by a pfifo of the same handle only changes its limit; queued packets stay.
            run(port.tc("qdisc", "replace", "dev", port.device(), "parent", c.classId(), "handle", c.leafHandle(),
                    "pfifo", "limit", Integer.toString(plan.leafLimit())));
        }
        Set<Integer> nodes = filterNodes();
        for (Map.Entry<Integer, Integer> e : plan.queueOfDscp().entrySet()) {
            int dscp = e.getKey();
            run(port.tc("filter", "replace", "dev", port.device(), "parent", "1:", "protocol", "ip",
                    "prio", FILTER_PRIO, "handle", filterHandle(dscp), "u32",
                    "match", "ip", "tos", "0x" + Integer.toHexString(dscp << 2), "0xfc",
                    "flowid", HtbPlan.queueClassId(e.getValue())));
            nodes.remove(dscp + 1);
        }
        for (int node : nodes) {
            run(port.tc("filter", "del", "dev", port.device(), "parent", "1:", "protocol", "ip",
                    "prio", FILTER_PRIO, "handle", "800::" + Integer.toHexString(node), "u32"));
        }
        for (String id : classes) {
            int minor = Integer.parseInt(id.substring(id.indexOf(':') + 1), 16);
            boolean ours = minor >= HtbPlan.FIRST_QUEUE_MINOR
                    && minor < HtbPlan.FIRST_QUEUE_MINOR + HtbPlan.MAX_QUEUES;
            if (ours && !wantedIds.contains(id)) {
                run(port.tc("class", "del", "dev", port.device(), "classid", id));
            }
        }
    }

    static String filterHandle(int dscp) {
        return "800::" + Integer.toHexString(dscp + 1);
    }

    private void run(List<String> command) {
        shell.run(command).orThrow();
    }
}
