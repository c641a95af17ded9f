package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;

/** What the command tests share: the saba command line run in the test's JVM, with what it prints captured. */
abstract class InProcessCli {
    protected final StringWriter out = new StringWriter();
    protected final StringWriter err = new StringWriter();

    /** Runs {@code saba args…}; returns its exit status. */
    protected int run(String... args) {
        var cl = SabaCli.newCommandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    /** What a refused command printed, asserted to be the one line the command line promises. */
    protected String errLine() {
        String e = err.toString().strip();
        assertEquals(1, e.lines().count(), e);
        return e;
    }
}
