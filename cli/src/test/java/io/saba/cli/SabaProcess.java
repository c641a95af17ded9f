package io.saba.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code saba ARGS…} as a process of its own (this test JVM's class path), for what only a real process shows. */
final class SabaProcess {
    /** How a finished run went. */
    record Result(int exit, String out, String err) {
        /** The standard error's lines. */
        List<String> errLines() {
            return err.isBlank() ? List.of() : List.of(err.strip().split("\n"));
        }
    }

    private SabaProcess() {
    }

    /** Starts {@code saba args…} in {@code dir}; the caller waits or kills it. */
    static Process start(Path dir, Path out, Path err, String... args) throws IOException {
        return start(dir, out, err, List.of(), args);
    }

    /** As {@link #start(Path, Path, Path, String...)}, with JVM options (e.g. bin/saba's -Dsaba.home). */
    static Process start(Path dir, Path out, Path err, List<String> jvmOptions, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SabaCli.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
    }

    /** Runs {@code saba args…} to its end (at most {@code seconds}, then it is killed and the test fails). */
    static Result run(Path dir, long seconds, String... args) throws IOException, InterruptedException {
        return run(dir, seconds, List.of(), args);
    }

    /** As {@link #run(Path, long, String...)}, with JVM options. */
    static Result run(Path dir, long seconds, List<String> jvmOptions, String... args)
            throws IOException, InterruptedException {
        Path out = dir.resolve("saba-" + System.nanoTime() + ".out");
        Path err = dir.resolve("saba-" + System.nanoTime() + ".err");
        Process p = start(dir, out, err, jvmOptions, args);
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("saba " + String.join(" ", args) + " still running after " + seconds + " s: "
                    + java.nio.file.Files.readString(err, StandardCharsets.UTF_8));
        }
        return new Result(p.exitValue(), java.nio.file.Files.readString(out, StandardCharsets.UTF_8),
                java.nio.file.Files.readString(err, StandardCharsets.UTF_8));
    }
}
