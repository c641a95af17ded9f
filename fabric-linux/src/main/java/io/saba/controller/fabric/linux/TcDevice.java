package io.saba.controller.fabric.linux;

import io.saba.controller.fabric.linux.HtbPlan.HtbClass;
import io.saba.process.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One port's device seen through {@code tc}: what is on it ({@link State}, read from the device or known from the
 * plan last installed), and the commands that move it to a plan with the least disruption (classes changed in
 * place, filters replaced, leftovers removed last), as lines for {@code tc -batch}.
 */
final class TcDevice {
    /** "class htb 1:21 ..." then, within its block, " Sent 1234 bytes 5 pkt ...". */
    private static final Pattern CLASS_LINE = Pattern.compile("^class htb (1:[0-9a-f]+)\\b");
    private static final Pattern SENT = Pattern.compile("^\\s*Sent (\\d+) bytes\\b");
    private static final Pattern ROOT_HTB = Pattern.compile("(?m)^qdisc htb 1: root\\b");

    private TcDevice() {
    }

    /**
     * What a device holds, as far as the commands below care.
     *
     * @param htbRoot the root qdisc is an HTB with handle 1: (ours, or the testbed's plain link)
     * @param classes HTB class ids present, e.g. "1:1", "1:10", "1:20"
     * @param filters Saba's DSCP filters on parent 1:
     */
    record State(boolean htbRoot, Set<String> classes, DscpFilters.Present filters) {
        /** The kernel's default: no HTB root, so nothing of ours. */
        static final State NONE = new State(false, Set.of(), DscpFilters.Present.NONE);

        State {
            classes = Set.copyOf(classes);
        }

        /**
         * Whether anything here is recognisably Saba's: a queue class (1:20–1:3f, see {@link HtbPlan}) or a u32
         * filter at one of Saba's preferences on the root (see {@link DscpFilters}). The root and classes 1:1 and
         * 1:10 are not: the namespace testbed's plain link has them too.
         */
        boolean hasSabaParts() {
            return !sabaClasses().isEmpty() || (htbRoot && !filters.isEmpty());
        }

        /** Saba's queue classes present. */
        Set<String> sabaClasses() {
            Set<String> out = new TreeSet<>();
            for (String id : classes) {
                if (isQueueClass(id)) {
                    out.add(id);
                }
            }
            return out;
        }

        /**
         * What a device that held {@code from} holds after a plan's commands succeeded; its filters may not be
         * {@link DscpFilters.Present#known known} (then read the device before changing it again).
         */
        static State after(State from, HtbPlan plan) {
            Set<String> classes = new TreeSet<>(List.of("1:1", plan.nonSaba().classId()));
            plan.queues().forEach(c -> classes.add(c.classId()));
            return new State(true, classes, DscpFilters.Present.after(from.htbRoot() ? from.filters()
                    : DscpFilters.Present.NONE, plan.classOfDscp().keySet()));
        }

        /** Reads the device (three tc processes: the slow path, for ports whose content is not known here). */
        static State read(LinuxPort port, CommandRunner shell) {
            if (!ROOT_HTB.matcher(shell.check(port.tc("qdisc", "show", "dev", port.device(), "root"))).find()) {
                return NONE;
            }
            Set<String> ids = new TreeSet<>();
            for (String line : shell.check(port.tc("class", "show", "dev", port.device())).split("\n")) {
                String[] t = line.trim().split("\\s+");
                if (t.length >= 3 && t[0].equals("class") && t[1].equals("htb")) {
                    ids.add(t[2]);
                }
            }
            return new State(true, ids, DscpFilters.Present.parse(shell.check(port.tc("filter", "show", "dev",
                    port.device(), "parent", "1:"))));
        }
    }

    /**
     * The {@code tc} lines (no program name, no namespace) that move a device from {@code from} to {@code plan}.
     * Order matters for live traffic: without an HTB root one is created with the link class; the link class and
     * every class the plan keeps are changed in place (their queues and packets survive; replacing a pfifo by a
     * pfifo of the same handle only changes its limit), new classes are added before any filter points at them,
     * filters are replaced atomically one by one ({@link DscpFilters#converge}), and only then are the classes
     * the plan dropped deleted.
     */
    static List<String> converge(String dev, State from, HtbPlan plan) {
        List<String> out = new ArrayList<>();
        String link = plan.linkBps() + "bit";
        Set<String> classes = from.classes();
        if (!from.htbRoot()) {
            out.add("qdisc replace dev " + dev + " root handle 1: htb default "
                    + Integer.toHexString(HtbPlan.NON_SABA_MINOR));
            classes = Set.of();
        }
        out.add("class " + (classes.contains("1:1") ? "change" : "add") + " dev " + dev + " parent 1: classid 1:1 htb"
                + " rate " + link + " ceil " + link + bursts(plan.linkBps(), plan.linkBps())
                + " quantum " + HtbPlan.BASE_QUANTUM);
        List<HtbClass> wanted = new ArrayList<>();
        wanted.add(plan.nonSaba());
        wanted.addAll(plan.queues());
        Set<String> wantedIds = new TreeSet<>();
        for (HtbClass c : wanted) {
            wantedIds.add(c.classId());
            out.add("class " + (classes.contains(c.classId()) ? "change" : "add") + " dev " + dev
                    + " parent 1:1 classid " + c.classId() + " htb rate " + c.rateBps() + "bit ceil " + link
                    + bursts(c.rateBps(), plan.linkBps()) + " quantum " + c.quantum());
            out.add("qdisc replace dev " + dev + " parent " + c.classId() + " handle " + c.leafHandle()
                    + " pfifo limit " + plan.leafLimit());
        }
        out.addAll(DscpFilters.converge(dev, from.htbRoot() ? from.filters() : DscpFilters.Present.NONE,
                plan.classOfDscp()));
        for (String id : classes) {
            if (isQueueClass(id) && !wantedIds.contains(id)) {
                out.add("class del dev " + dev + " classid " + id);
            }
        }
        return out;
    }

    /**
     * burst and cburst in bytes ({@link HtbPlan#burstBytes}): tc's own default is one frame on high-resolution-timer
     * kernels.
     */
    private static String bursts(long rateBps, long ceilBps) {
        return " burst " + HtbPlan.burstBytes(rateBps) + " cburst " + HtbPlan.burstBytes(ceilBps);
    }

    /** A class id in Saba's queue range, 1:20–1:3f: anything there is Saba's. */
    static boolean isQueueClass(String id) {
        if (!id.startsWith("1:")) {
            return false;
        }
        int minor = Integer.parseInt(id.substring(2), 16);
        return minor >= HtbPlan.FIRST_QUEUE_MINOR && minor < HtbPlan.FIRST_QUEUE_MINOR + HtbPlan.MAX_QUEUES;
    }

    /**
     * Saba's queues' byte counters from {@code tc -s class show dev D}: queue index (minor − 0x20) → bytes sent.
     * Other classes (the link's 1:1, the non-Saba 1:10) are left out.
     */
    static Map<Integer, Long> queueBytes(String statsOutput) {
        Map<Integer, Long> out = new TreeMap<>();
        String id = null;
        for (String line : statsOutput.split("\n")) {
            Matcher c = CLASS_LINE.matcher(line);
            if (c.find()) {
                id = c.group(1);
                continue;
            }
            Matcher sent = SENT.matcher(line);
            if (id != null && sent.find()) {
                if (isQueueClass(id)) {
                    out.put(Integer.parseInt(id.substring(2), 16) - HtbPlan.FIRST_QUEUE_MINOR,
                            Long.parseLong(sent.group(1)));
                }
                id = null; // one counter per class
            }
        }
        return out;
    }

    /** Deletes the root qdisc: the kernel's default comes back. */
    static List<String> removeRoot(String dev) {
        return List.of("qdisc del dev " + dev + " root");
    }
}
