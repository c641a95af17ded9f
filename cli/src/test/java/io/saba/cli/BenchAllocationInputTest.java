package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code saba bench allocation}: a count it cannot run is refused in one line naming the option, exit 2, before any
 * scenario (a negative warm-up was an exception's stack trace; a degree the table cannot be refitted at ran the
 * table's own models under that degree's label).
 */
class BenchAllocationInputTest {
    @Test
    void countsItCannotRunAreOneLineAndExitTwo() {
        for (List<String> args : List.of(List.of("--warmup", "-1"), List.of("--scenarios", "0"),
                List.of("--events", "-3"), List.of("--threads", "0"), List.of("--apps", "0"),
                List.of("--degrees", "4"))) {
            var cl = SabaCli.newCommandLine();
            StringWriter err = new StringWriter();
            cl.setErr(new PrintWriter(err, true));
            int exit = cl.execute(Stream.concat(Stream.of("bench", "allocation", "--progress", "off"), args.stream())
                    .toArray(String[]::new));
            assertEquals(2, exit, args + ": " + err);
            assertEquals(1, err.toString().strip().lines().count(), args + ": " + err);
            assertTrue(err.toString().contains(args.get(0)), args + " names the option: " + err);
        }
    }
}
