package io.saba.controller.fabric.linux;

import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Just enough of tc for unit tests without root: tracks the root qdisc, HTB class ids and u32 filter nodes that
 * commands add and delete, answers the show commands TcDevice parses, records every command, and fails the
 * commands a test picks.
 */
final class FakeTc implements CommandRunner {
    final List<String> log = new ArrayList<>();
    boolean root;
    final TreeSet<String> classes = new TreeSet<>();
    final TreeMap<Integer, String> filters = new TreeMap<>(); // node → flowid
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
                    filters.clear();
                }
            }
            case "qdisc del" -> {
                root = false;
                classes.clear();
                filters.clear();
            }
            case "class show" -> classes.forEach(id -> out.append("class htb ").append(id).append(" parent 1:1\n"));
            case "class add", "class replace" -> classes.add(after(a, "classid"));
            case "class change" -> {
                if (!classes.contains(after(a, "classid"))) {
                    return new CommandResult(command, 2, "", "Error: no such class");
                }
            }
            case "class del" -> classes.remove(after(a, "classid"));
            case "filter show" -> filters.forEach((n, f) -> out.append("filter parent 1: protocol ip pref 1 u32 chain 0 fh 800::")
                    .append(Integer.toHexString(n)).append(" order ").append(n).append(" key ht 800 bkt 0 flowid ")
                    .append(f).append('\n'));
            case "filter replace" -> filters.put(node(after(a, "handle")), after(a, "flowid"));
            case "filter del" -> filters.remove(node(after(a, "handle")));
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
