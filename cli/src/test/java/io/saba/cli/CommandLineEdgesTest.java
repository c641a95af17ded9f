package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What a new user meets when a command line is wrong, or asks for help. */
class CommandLineEdgesTest extends InProcessCli {
    private static final String TABLE = Path.of("..", "examples", "sensitivity-table.json").toString();

    @Test
    void aNestedCommandsErrorNamesTheWholeCommand() {
        assertEquals(2, run("fabric", "status"));
        assertEquals("saba fabric status: --config FILE or --fabric NAME is required", errLine());
    }

    @Test
    void aMisspeltSubcommandGetsASuggestion() {
        assertEquals(2, run("alocate", "--table", TABLE));
        String e = errLine();
        assertTrue(e.startsWith("saba: unknown command 'alocate'"), e);
        assertTrue(e.contains("did you mean allocate?"), e);
    }

    @Test
    void aMisspeltOptionIsNamedBeforeTheOptionItLeavesMissing() {
        assertEquals(2, run("allocate", "--tabel", TABLE, "--apps", "lr,sort"));
        String e = errLine();
        assertTrue(e.startsWith("saba allocate: unknown option '--tabel'"), e);
        assertTrue(e.contains("did you mean --table?"), e);
    }

    @Test
    void aFloorTheApplicationsCannotAllHaveIsRefused() {
        assertEquals(2, run("allocate", "--table", TABLE, "--apps", "lr,pagerank,sort", "--floor", "50"));
        assertEquals("saba allocate: --floor 50 % for each of 3 applications exceeds --capacity 100 %", errLine());
        assertEquals(0, run("allocate", "--table", TABLE, "--apps", "lr,pagerank,sort", "--floor", "33"));
    }

    @Test
    void everyProfileOptionIsDescribed() {
        assertEquals(0, run("profile", "--help"));
        String factor = out.toString().lines().filter(l -> l.strip().startsWith("--factor=")).findFirst().orElseThrow();
        assertTrue(factor.replaceFirst(".*--factor=<\\w+>", "").strip().length() > 10, factor);
    }

    @Test
    void optionsAppearOnlyWhereTheyMeanSomething() {
        assertEquals(0, run("allocate", "--help"));
        String allocate = out.toString();
        assertFalse(allocate.contains("--progress"), allocate);
        assertFalse(allocate.contains("--version"), allocate);
        assertTrue(allocate.contains("--help"), allocate);
        out.getBuffer().setLength(0);
        assertEquals(0, run("campaign", "--help"));
        assertTrue(out.toString().contains("--progress"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("--version"), out.toString());
    }
}
