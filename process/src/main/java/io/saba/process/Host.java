package io.saba.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What this machine offers a command before it runs: the tools on the PATH and whether we are root. One place for
 * both, so every check that decides to run or to skip (the testbed, captures, simulated subnets, tests) asks the
 * same question the same way.
 */
public final class Host {
    private Host() {
    }

    /**
     * The first executable of the given names on the PATH: directory by directory in the PATH's order, and within a
     * directory in the order given.
     */
    public static Optional<Path> which(String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            for (String name : names) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code tool} is an executable on the PATH. */
    public static boolean onPath(String tool) {
        return which(tool).isPresent();
    }

    /**
     * The effective user id as {@code id -u} prints it (through {@code shell}, which a test may answer for), or an
     * empty string when {@code id} failed. The effective id is what the kernel checks for namespaces, tc and
     * captures; the {@code user.name} property names the account and is not.
     */
    public static String uid(CommandRunner shell) {
        CommandResult id = shell.run(List.of("id", "-u"));
        return id.ok() ? id.stdout().strip() : "";
    }

    /** Whether this process runs as root (effective user id 0). */
    public static boolean root() {
        return uid(new ProcessRunner()).equals("0");
    }
}
