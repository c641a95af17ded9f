package io.saba.harness.sim.sharing;

import java.io.Serializable;

/**
 * The wait a synchronous round's messages meet in a saturated queue, behind the data other applications' bulk flows
 * keep buffered there: what a fluid model, which only divides rates, does not charge.
 *
 * <p>Each backlogged flow of another application in the same queue keeps about {@code perFlowBytes} buffered, up to
 * what the queue holds, {@code limitSeconds} of the port's full rate (a drop-tail FIFO's size; infinite for a
 * lossless fabric, where every flow's credits fill its own input buffer). A message arriving at the queue waits for
 * that backlog to drain at the queue's service rate. Flows in other queues (Saba's levels, a separate VL) are not
 * ahead of it.
 *
 * @param name           how the option names it
 * @param perFlowBytes   bytes one backlogged flow keeps in the queue
 * @param limitSeconds   the most the queue holds, as seconds of the port's full rate
 */
public record QueueingDelay(String name, double perFlowBytes, double limitSeconds) implements Serializable {
    /**
     * The namespace testbed's TCP (cubic, what {@code saba testbed up} pins) in an HTB class's pfifo of 10 ms of the
     * link (HtbPlan.leafLimit), measured at 20 Mbit/s by {@code scripts/testbed-queueing-delay.sh}
     * (examples/queueing-delay/cubic-1129.csv): one bulk flow kept a median 4.0 ms in the queue (3.8–5.4 over three
     * repetitions), two 9.2 ms (9.1–9.4), four or more kept it full. 11 KB a flow (4.4 ms at 20 Mbit/s) is the least-
     * squares fit to the one- and two-flow medians; the cap takes the rest. (The VM's BBR, which the testbed ran
     * before, kept 1.8–3.4 ms with one flow and the queue full with two: rtt.csv.)
     */
    public static final QueueingDelay TESTBED = new QueueingDelay("testbed", 11_000, 0.010);
    /**
     * A credit-based InfiniBand switch, from the RPerf paper: a latency-sensitive message waits 4–5 µs per
     * bandwidth-intensive flow at 56 Gb/s in a FCFS switch, that is each flow keeps about 4.5 µs × 56 Gb/s = 31.5 KB
     * ahead of it; no drop-tail limit.
     */
    public static final QueueingDelay INFINIBAND = new QueueingDelay("infiniband", 4.5e-6 * 56e9 / 8,
            Double.POSITIVE_INFINITY);

    public QueueingDelay {
        if (!(perFlowBytes >= 0) || Double.isInfinite(perFlowBytes) || !(limitSeconds >= 0)) {
            throw new IllegalArgumentException("queueing delay needs finite per-flow bytes ≥ 0 and a limit ≥ 0, got "
                    + perFlowBytes + " and " + limitSeconds);
        }
    }

    /** {@link #TESTBED} or {@link #INFINIBAND} by name. */
    public static QueueingDelay named(String name) {
        return switch (name) {
            case "testbed" -> TESTBED;
            case "infiniband" -> INFINIBAND;
            default -> throw new IllegalArgumentException("queueing delay '" + name
                    + "' is not one of: testbed, infiniband");
        };
    }

    /**
     * Seconds a message waits at one saturated port.
     *
     * @param flowsAhead  other applications' backlogged flows in the message's queue
     * @param capacity    the port's rate, bytes per second
     * @param queueRate   the rate the message's queue is served at, bytes per second (the capacity for a FIFO)
     */
    public double wait(double flowsAhead, double capacity, double queueRate) {
        if (flowsAhead <= 0 || queueRate <= 0) {
            return 0;
        }
        double buffered = Math.min(flowsAhead * perFlowBytes, limitSeconds * capacity);
        return buffered / queueRate;
    }
}
