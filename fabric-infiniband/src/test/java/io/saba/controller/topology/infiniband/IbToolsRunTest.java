package io.saba.controller.topology.infiniband;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a diag is run, with real child processes standing in for infiniband-diags (no subnet needed). */
class IbToolsRunTest {
    @TempDir
    Path dir;

    private String tool(String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        return p.toString();
    }

    @Test
    void theEnvironmentAndTheHcaReachTheTool() throws Exception {
        IbTools tools = new IbTools(Map.of("IBSIM_SOCKNAME", "sim7"), "mlx5_1", 2, 10_000);
        assertEquals("sim7 -C mlx5_1 -P 2 -s\n", tools.run(tool("diag", "echo \"$IBSIM_SOCKNAME\" \"$@\""), "-s"));
    }

    @Test
    void aDiagThatNeverAnswersFailsAtTheTimeoutNamingItself() throws Exception {
        // a diag started while no ibsim listens blocks instead of failing
        String hung = tool("hung", "sleep 60");
        IbTools tools = new IbTools(Map.of(), null, 0, 500);
        IllegalStateException e = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> assertThrows(IllegalStateException.class, () -> tools.run(hung)));
        assertEquals(hung + " did not finish within 500 ms", e.getMessage());
    }

    @Test
    void aFailingDiagIsNamedWithItsExitAndStderr() throws Exception {
        String bad = tool("bad", "echo 'ibwarn: can'\"'\"'t open UMAD port' >&2; exit 3");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new IbTools(Map.of(), null, 0, 10_000).run(bad, "-x"));
        assertEquals(bad + " -x failed (exit 3): ibwarn: can't open UMAD port", e.getMessage());
        UncheckedIOException missing = assertThrows(UncheckedIOException.class,
                () -> new IbTools(Map.of(), null, 0, 10_000).run(dir.resolve("absent").toString()));
        assertTrue(missing.getMessage().contains("(Debian package infiniband-diags)"), missing.getMessage());
    }
}
