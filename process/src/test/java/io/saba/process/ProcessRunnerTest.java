package io.saba.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The shared runner against real child processes. */
class ProcessRunnerTest {
    private static final Duration BOUND = Duration.ofSeconds(20);

    @Test
    void aChildThatNeverAnswersIsKilledAtTheTimeout() {
        ProcessRunner runner = new ProcessRunner(Duration.ofMillis(500));
        CommandResult r = assertTimeoutPreemptively(BOUND, () -> runner.run(List.of("sleep", "60")));
        assertEquals(ProcessRunner.TIMED_OUT, r.exitCode());
        assertTrue(r.stderr().contains("killed after PT0.5S"), r.stderr());
        assertThrows(CommandException.class, r::orThrow);
    }

    @Test
    void aShellWaitingOnItsChildIsKilledWithItAndWhatItPrintedIsKept() throws Exception {
        ProcessRunner runner = new ProcessRunner(Duration.ofMillis(500));
        // the shell prints its child's pid, then waits on a child that holds the output pipe open too
        CommandResult r = assertTimeoutPreemptively(BOUND,
                () -> runner.run(List.of("sh", "-c", "sleep 60 & echo $!; wait")));
        assertEquals(ProcessRunner.TIMED_OUT, r.exitCode());
        long sleeper = Long.parseLong(r.stdout().strip());
        // SIGKILL is delivered asynchronously, and a killed orphan stays a zombie until its new parent reaps it
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (running(sleeper) && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertFalse(running(sleeper), "the shell's child outlived the timeout");
    }

    /** Whether a process exists and is not a zombie (its state in /proc/PID/stat, after the command's name). */
    private static boolean running(long pid) throws java.io.IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String s;
        try {
            s = Files.readString(stat);
        } catch (java.nio.file.NoSuchFileException gone) {
            return false;
        }
        return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    }

    @Test
    void aChildThatExitsButLeavesItsOutputOpenDoesNotHoldTheCaller() {
        ProcessRunner runner = new ProcessRunner(Duration.ofMillis(1500));
        // the shell lives 0.5 s so that the runner is already reading when it exits: a child gone before the first
        // read lets the JDK drain and close the pipe itself (its reaper), and the runner never sees it held open
        CommandResult r = assertTimeoutPreemptively(BOUND,
                () -> runner.run(List.of("sh", "-c", "echo started; sleep 60 & sleep 0.5")));
        assertEquals(0, r.exitCode());
        assertEquals("started\n", r.stdout());
        assertTrue(r.stderr().contains("output still open"), r.stderr());
    }

    @Test
    void bothStreamsAreDrainedTogether() {
        // far beyond a pipe's 64 KiB on each stream: a runner reading one after the other would block
        CommandResult r = assertTimeoutPreemptively(BOUND, () -> new ProcessRunner().run(List.of("sh", "-c",
                "i=0; while [ $i -lt 20 ]; do head -c 100000 /dev/zero | tr '\\0' o; head -c 100000 /dev/zero "
                        + "| tr '\\0' e >&2; i=$((i+1)); done")));
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals(2_000_000, r.stdout().length());
        assertEquals(2_000_000, r.stderr().length());
    }

    @Test
    void stdinEnvironmentAndExitCodeReachTheChild() {
        ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(10), Map.of("SABA_TEST_VALUE", "42"));
        CommandResult r = runner.run(List.of("sh", "-c", "cat; echo \"$SABA_TEST_VALUE\"; exit 3"), "in\n");
        assertEquals(3, r.exitCode());
        assertEquals("in\n42\n", r.stdout());
        CommandException e = assertThrows(CommandException.class, r::orThrow);
        assertTrue(e.getMessage().startsWith("`sh -c "), e.getMessage());
        assertTrue(e.getMessage().contains("exited 3"), e.getMessage());
    }

    @Test
    void anInterruptedCallerKillsTheChildAndKeepsItsInterrupt() throws Exception {
        AtomicReference<CommandResult> result = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            result.set(new ProcessRunner(Duration.ofSeconds(60)).run(List.of("sh", "-c", "echo $$; exec sleep 60")));
            stillInterrupted.set(Thread.currentThread().isInterrupted());
        });
        caller.start();
        Thread.sleep(500);
        caller.interrupt();
        caller.join(Duration.ofSeconds(20).toMillis());
        assertFalse(caller.isAlive(), "the runner returned");
        assertTrue(result.get().interrupted(), result.get().toString());
        assertTrue(stillInterrupted.get());
        long child = Long.parseLong(result.get().stdout().strip());
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (running(child) && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertFalse(running(child), "the child outlived its interrupted caller");
    }

    @Test
    void aMissingBinaryIsAFailedCommandNamed() {
        CommandResult r = new ProcessRunner().run(List.of("saba-no-such-binary-here"));
        assertEquals(127, r.exitCode());
        assertTrue(r.notStarted());
        assertTrue(r.whyNotStarted().startsWith("Cannot run program \"saba-no-such-binary-here\""), r.stderr());
    }
}
