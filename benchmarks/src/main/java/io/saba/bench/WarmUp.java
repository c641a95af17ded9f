package io.saba.bench;

import java.io.PrintStream;

/**
 * Warm-up passes until the JIT compilers are quiet: a controller runs for days, so a benchmark should measure
 * compiled code. One pass is not enough for the controller's event path: after one, the C2 compilers can still be
 * compiling gRPC's and Netty's paths during the measured phases, taking a large share of the process's CPU on the
 * cores the controller needs.
 */
final class WarmUp {
    /** The JIT compilers' share of a pass's process CPU under which the compiled code counts as settled. */
    static final double QUIET_JIT_SHARE = 0.05;

    /** One warm-up pass. */
    interface Pass {
        void run() throws Exception;
    }

    private WarmUp() {
    }

    /**
     * Runs {@code pass} until the JIT compilers take under {@link #QUIET_JIT_SHARE} of a pass's process CPU, at most
     * {@code maxPasses} times, printing each pass's share.
     */
    static void untilJitQuiet(Pass pass, int maxPasses, PrintStream out) throws Exception {
        CpuByThread cpu = new CpuByThread();
        for (int n = 1; ; n++) {
            long jit0 = cpu.reading().get(CpuByThread.JIT);
            long cpu0 = ProcessFigures.processCpuNanos();
            pass.run();
            double jitShare = (cpu.reading().get(CpuByThread.JIT) - jit0)
                    / (double) Math.max(1, ProcessFigures.processCpuNanos() - cpu0);
            boolean quiet = jitShare < QUIET_JIT_SHARE;
            out.printf("warm-up pass %d: the JIT compilers took %.0f %% of the process's CPU%s%n", n, 100 * jitShare,
                    quiet ? "" : n >= maxPasses ? "; not quiet yet, measuring anyway" : "");
            out.flush();
            if (quiet || n >= maxPasses) {
                return;
            }
        }
    }
}
