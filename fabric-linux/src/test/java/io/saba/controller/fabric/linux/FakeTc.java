package io.saba.controller.fabric.linux;

import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Just enough of tc for unit tests without root: tracks the root qdisc, HTB class ids, and the u32 filter nodes of
 * both families that commands add and delete (the IPv6 preference with the root table the kernel would number,
 * 801:, behind the IPv4 one's 800:), answers the show commands TcDevice parses, records every command, and fails the
 * commands a test picks.
 */
final class FakeTc implements CommandRunner {
    final List<String> log = new ArrayList<>();
    boolean root;
    final TreeSet<String> classes = new TreeSet<>();
    final TreeMap<Integer, String> filters = new TreeMap<>(); // IPv4 node → flowid
    final TreeMap<Integer, String> v6Filters = new TreeMap<>(); // IPv6 node → flowid
    /** The IPv6 preference's root table, while there is one. */
    String v6Table;
    Predicate<String> failing = c -> false;

    @Override
    public CommandResult run(List<String> command, String stdin) {
        if (command.contains("-batch")) {
            return batch(command, stdin);
        }
        String c = String.join(" ", command);
        if (failing.test(c)) {
            log.add("FAILED " + c);
            return new CommandResult(command, 2, "", "Error: injected failure");
        }
        log.add(c);
        List<String> a = command.subList(command.indexOf("tc") + (command.contains("-n") ? 3 : 1), command.size());
        String obj = a.get(0);
        String verb = a.get(1);
        StringBuilder out = new StringBuilder();
        switch (obj + " " + verb) {
            case "qdisc show" -> {
                if (root) {
                    out.append("qdisc htb 1: root refcnt 2 r2q 10 default 0x10\n");
                }
            }
            case "qdisc replace" -> {
                if (a.contains("root")) {
                    root = true;
                    classes.clear();
                    clearFilters();
                }
            }
            case "qdisc del" -> {
                root = false;
                classes.clear();
                clearFilters();
            }
            case "class show" -> classes.forEach(id -> out.append("class htb ").append(id).append(" parent 1:1\n"));
            case "class add", "class replace" -> classes.add(after(a, "classid"));
            case "class change" -> {
                if (!classes.contains(after(a, "classid"))) {
                    return new CommandResult(command, 2, "", "Error: no such class");
                }
            }
            case "class del" -> classes.remove(after(a, "classid"));
            case "filter show" -> showFilters(out);
            case "filter replace" -> {
                String handle = after(a, "handle");
                if (!a.contains("ipv6")) {
                    filters.put(node(handle), after(a, "flowid"));
                } else if (handle.startsWith("::") || handle.startsWith(v6Table + ":")) {
                    v6Table = "801:";
                    v6Filters.put(node(handle), after(a, "flowid"));
                } else {
                    return new CommandResult(command, 2, "", "Error: cls_u32: Handle specified hash table address "
                            + "mismatch.");
                }
            }
            case "filter del" -> {
                if (!a.contains("ipv6")) {
                    filters.remove(node(after(a, "handle")));
                } else if (v6Table == null) {
                    return new CommandResult(command, 2, "", "Error: Cannot find specified filter chain.");
                } else if (a.contains("handle")) {
                    v6Filters.remove(node(after(a, "handle")));
                } else {
                    v6Table = null;
                    v6Filters.clear();
                }
            }
            default -> {
                return new CommandResult(command, 1, "", "fake tc does not know: " + c);
            }
        }
        return new CommandResult(command, 0, out.toString(), "");
    }

    /** {@code tc [-n NS] -batch -}: each stdin line as its own command, stopping at the first failure like tc. */
    private CommandResult batch(List<String> command, String stdin) {
        List<String> prefix = command.subList(0, command.indexOf("-batch"));
        String[] lines = stdin.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            List<String> one = new ArrayList<>(prefix);
            one.addAll(List.of(lines[i].trim().split("\\s+")));
            CommandResult r = run(one, null);
            if (!r.ok()) {
                return new CommandResult(command, 1, "", r.stderr() + "\nCommand failed -:" + (i + 1));
            }
        }
        return new CommandResult(command, 0, "", "");
    }

    private void clearFilters() {
        filters.clear();
        v6Filters.clear();
        v6Table = null;
    }

    /** As iproute2 6.1 prints {@code filter show dev D parent 1:}. */
    private void showFilters(StringBuilder out) {
        filters.forEach((n, f) -> out.append("filter protocol ip pref 1 u32 chain 0 fh 800::")
                .append(Integer.toHexString(n)).append(" order ").append(n).append(" key ht 800 bkt 0 *flowid ")
                .append(f).append(" not_in_hw\n"));
        if (v6Table != null) {
            String v6 = "filter protocol ipv6 pref 2 u32 chain 0 fh ";
            out.append(v6).append(v6Table).append(" ht divisor 1\n");
            v6Filters.forEach((n, f) -> out.append(v6).append(v6Table).append(':').append(Integer.toHexString(n))
                    .append(" order ").append(n).append(" key ht 801 bkt 0 *flowid ").append(f)
                    .append(" not_in_hw\n"));
        }
    }

    List<String> changes() {
        return log.stream().filter(c -> !c.contains(" show ")).toList();
    }

    private static String after(List<String> a, String key) {
        return a.get(a.indexOf(key) + 1);
    }

    private static int node(String handle) {
        return Integer.parseInt(handle.substring(handle.lastIndexOf(':') + 1), 16);
    }
}
