package io.saba.controller.fabric.linux;

import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs tc lines in one process per network namespace: {@code tc [-n NS] -batch -} with the lines on stdin. One
 * process instead of one per command is what makes a port follow the controller within milliseconds (a tc process
 * costs ~3 ms, a port update is ~15 commands). tc stops at the first failing line and names it
 * ({@code Command failed -:N}); the lines before it stay applied, so callers re-read the device to recover.
 */
final class TcBatch {
    private static final Pattern FAILED_LINE = Pattern.compile("Command failed -:(\\d+)");

    private TcBatch() {
    }

    /** Returns null when every line succeeded, otherwise which line failed and what tc said. */
    static String run(CommandRunner shell, String namespace, List<String> lines) {
        if (lines.isEmpty()) {
            return null;
        }
        List<String> command = new ArrayList<>(List.of("tc"));
        if (namespace != null) {
            command.addAll(List.of("-n", namespace));
        }
        command.addAll(List.of("-batch", "-"));
        CommandResult r = shell.run(command, String.join("\n", lines) + "\n");
        if (r.ok()) {
            return null;
        }
        String prefix = "tc" + (namespace == null ? " " : " -n " + namespace + " ");
        Matcher m = FAILED_LINE.matcher(r.stderr());
        String err = r.stderr().replaceAll("(?m)^Command failed -:\\d+\\s*$", "").strip();
        if (m.find()) {
            int line = Integer.parseInt(m.group(1));
            if (line >= 1 && line <= lines.size()) {
                return "`" + prefix + lines.get(line - 1) + "` exited " + r.exitCode() + ": " + err;
            }
        }
        return "`" + String.join(" ", command) + "` (" + lines.size() + " lines) exited " + r.exitCode() + ": " + err;
    }
}
