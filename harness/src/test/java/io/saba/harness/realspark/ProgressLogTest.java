package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressLogTest {
    @Test
    void plainLinesWithElapsedTimeAndAnEstimateFromTheSetupsRunSoFar() {
        StringWriter out = new StringWriter();
        AtomicLong now = new AtomicLong(0);
        ProgressLog p = new ProgressLog(new PrintWriter(out), 5, 1, now::get);
        now.set(65_000_000_000L);
        p.line("setup 1 baseline: s1-j0 sort x1 on h2: started");
        now.set(600_000_000_000L);
        p.setupDone(1, "mean speedup 1.10x");
        now.set(1_200_000_000_000L);
        p.setupDone(2, "mean speedup 0.90x");
        String[] lines = out.toString().split("\n");
        assertEquals("[0:01:05] setup 1 baseline: s1-j0 sort x1 on h2: started", lines[0]);
        assertEquals("[0:10:00] setup 1 done, mean speedup 1.10x; setups: 2/5 (40 %), 10 min 00 s elapsed, about 30 min"
                + " 00 s left", lines[1]);
        assertEquals("[0:20:00] setup 2 done, mean speedup 0.90x; setups: 3/5 (60 %), 20 min 00 s elapsed, about 20 min"
                + " 00 s left", lines[2]);
        assertFalse(out.toString().contains("\r"), "no carriage returns");
    }
}
