package io.saba.controller.fabric.linux;

import io.saba.wire.DscpMap;
import io.saba.core.alloc.PortAllocation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The HTB tree one port should have: a pure value computed from a {@link PortAllocation}, compared with the
 * previous plan to decide what to change, and kept as the state to roll back to.
 *
 * @param linkBps       the root's rate and every class's ceil
 * @param nonSaba       the class for traffic outside Saba (and the default)
 * @param queues        Saba queue classes, by queue index
 * @param queueOfDscp   DSCP → queue index, for the levels the allocation names
 * @param classOfDscp   DSCP → class id, one u32 filter per IP family each, for every Saba DSCP of the DSCP map
 *                      (see {@link #of})
 * @param leafLimit     packets each class's FIFO holds (see {@link #leafLimit(long, double)})
 */
public record HtbPlan(long linkBps, HtbClass nonSaba, List<HtbClass> queues, SortedMap<Integer, Integer> queueOfDscp,
                      SortedMap<Integer, String> classOfDscp, int leafLimit) {
    /** The smallest share any class is given: HTB needs a positive rate, and C_Saba = 1 leaves the rest nothing. */
    public static final double MIN_SHARE = 0.001;
    /** Quantum of the smallest class: one full Ethernet frame, so every class can send a packet per round. */
    static final int BASE_QUANTUM = 1514;
    /** HTB's own upper bound for a quantum. */
    static final int MAX_QUANTUM = 200_000;
    private static final double EPS = 1e-6;

    public HtbPlan {
        queues = List.copyOf(queues);
        queueOfDscp = Collections.unmodifiableSortedMap(new TreeMap<>(queueOfDscp));
        classOfDscp = Collections.unmodifiableSortedMap(new TreeMap<>(classOfDscp));
    }

    /**
     * One HTB class.
     *
     * @param minor   the class's minor number (hex in tc's notation)
     * @param rateBps guaranteed rate
     * @param quantum bytes per round when borrowing: classes share spare bandwidth in proportion to it
     */
    public record HtbClass(int minor, long rateBps, int quantum) {
        public String classId() {
            return "1:" + Integer.toHexString(minor);
        }

        /** Handle of the class's leaf FIFO: the class's minor as a major, so it is predictable ("20:" for 1:20). */
        public String leafHandle() {
            return Integer.toHexString(minor) + ":";
        }
    }

    public static final int NON_SABA_MINOR = 0x10;
    public static final int FIRST_QUEUE_MINOR = 0x20;
    /** Queue minors live in [0x20, 0x20 + MAX_QUEUES): anything there that the plan lacks is ours to delete. */
    public static final int MAX_QUEUES = 32;

    /** What a class's FIFO holds unless configured otherwise: 10 ms of the link (see {@link #leafLimit}). */
    public static final double DEFAULT_BUFFER_SECONDS = 0.010;
    /** The deepest buffer accepted: a second of the link is already far beyond any switch's. */
    public static final double MAX_BUFFER_SECONDS = 1.0;

    /**
     * Packets a class's FIFO holds: {@code bufferSeconds} of the link, at least 16 full frames. The default, 10 ms,
     * is a shallow datacenter switch buffer. The kernel's default (the device's txqueuelen, 1000 packets) is 120 ms
     * at 100 Mbit/s, and on a device with segmentation offload each "packet" can be a 64 KB super-packet: a queue
     * that never overflows lets TCP flows grow without loss, and the first flow keeps most of a FIFO indefinitely.
     * A deeper buffer is for a device served by a CPU that can stall (a VM's vCPU taken away for tens of
     * milliseconds): whatever arrives during a stall must fit, or TCP backs off for a loss the weights did not
     * cause, and the class with the largest weight, whose buffer is the fewest milliseconds of its own rate, falls
     * furthest short of its share.
     */
    public static int leafLimit(long linkBps, double bufferSeconds) {
        return (int) Math.max(16, Math.round(linkBps / 8.0 * bufferSeconds / BASE_QUANTUM));
    }

    /**
     * How far behind its rate a class may fall and still catch up: its burst (at its rate) and cburst (at its ceil)
     * hold this much time. tc sizes a default burst as rate / HZ plus a frame, and takes HZ from /proc/net/psched,
     * which on high-resolution-timer kernels reads 10^9: the burst is one frame, 121 µs at 100 Mbit/s. Every
     * dequeue that comes later than that (a softirq or timer served late, as on a VM) loses the class tokens for
     * good, so a backlogged class gets less than its rate and the link less than its rate: the heaviest class, with
     * the fewest microseconds per frame, loses most. 10 ms is what rate / HZ gave with HZ = 100.
     */
    public static final double BURST_SECONDS = 0.010;
    /** The least burst: tc's own floor, its default MTU of 1,600 bytes, which holds one full Ethernet frame. */
    static final int MIN_BURST_BYTES = 1600;

    /** Bytes of burst for a class at {@code bps}: {@link #BURST_SECONDS} of it, at least {@link #MIN_BURST_BYTES}. */
    public static long burstBytes(long bps) {
        return Math.max(MIN_BURST_BYTES, Math.round(bps / 8.0 * BURST_SECONDS));
    }

    /** Refuses a buffer that is not a positive time of at most {@link #MAX_BUFFER_SECONDS}. */
    public static double checkBuffer(double seconds, String what) {
        if (!(seconds > 0 && seconds <= MAX_BUFFER_SECONDS)) {
            throw new IllegalArgumentException(what + " must be a time in (0, " + (int) (MAX_BUFFER_SECONDS * 1000)
                    + "] ms, got " + seconds * 1000 + " ms");
        }
        return seconds;
    }

    public static String queueClassId(int queue) {
        return "1:" + Integer.toHexString(FIRST_QUEUE_MINOR + queue);
    }

    /** The plain link: everything in the non-Saba class at the full rate (what the testbed installs). */
    public static HtbPlan baseline(long linkBps) {
        return new HtbPlan(linkBps, new HtbClass(NON_SABA_MINOR, linkBps, BASE_QUANTUM), List.of(), new TreeMap<>(),
                new TreeMap<>(), leafLimit(linkBps, DEFAULT_BUFFER_SECONDS));
    }

    /** {@link #of(PortAllocation, long, double, DscpMap, double)} with the default buffer. */
    public static HtbPlan of(PortAllocation a, long linkBps, double cSaba, DscpMap dscpMap) {
        return of(a, linkBps, cSaba, dscpMap, DEFAULT_BUFFER_SECONDS);
    }

    /**
     * Plans a port from its allocation. Every Saba DSCP of the map gets a filter, not only the levels the allocation
     * names: a level that is not on the port yet goes to the queue of the nearest level that is (the lower one on a
     * tie), or to the non-Saba class when no Saba level is there. So the first bytes of an application new to the
     * port travel with the most similar applications' queue until the controller's next plan gives it its own
     * weight, instead of falling into the non-Saba class.
     *
     * @param bufferSeconds what each class's FIFO holds, as time of the link ({@link #leafLimit})
     * @throws IllegalArgumentException if the allocation cannot be installed as given (weights out of range or
     *                                  summing above C_Saba, a level mapped to a queue without a weight)
     */
    public static HtbPlan of(PortAllocation a, long linkBps, double cSaba, DscpMap dscpMap, double bufferSeconds) {
        double[] w = a.queueWeights();
        if (w.length > MAX_QUEUES) {
            throw new IllegalArgumentException(w.length + " queues, at most " + MAX_QUEUES + " supported");
        }
        double sum = 0;
        for (int q = 0; q < w.length; q++) {
            if (!Double.isFinite(w[q]) || w[q] < -EPS || w[q] > 1 + EPS) {
                throw new IllegalArgumentException("queue " + q + " weight " + w[q] + " is not a fraction of the link");
            }
            // a queue's weight is a sum of its applications' weights: two halves of C_Saba = 1 make
            // 1.0000000000000002, which is the whole link, not an error (it left ports unprogrammed at c-saba 1)
            w[q] = Math.min(1, Math.max(0, w[q]));
            sum += w[q];
        }
        SortedMap<Integer, Integer> queueOfDscp = new TreeMap<>();
        for (Map.Entry<Integer, Integer> e : new TreeMap<>(a.queueOfLevel()).entrySet()) {
            int level = e.getKey();
            int q = e.getValue();
            if (q < 0 || q >= w.length) {
                throw new IllegalArgumentException("level " + level + " mapped to queue " + q + " but the port has "
                        + w.length + " queue weights");
            }
            int dscp = dscpMap.dscp(level);
            // DSCP 0 is what untagged traffic carries: a filter for it would pull everything into a Saba queue.
            // Such levels (level 0, or levels beyond the DSCP table) share the non-Saba class.
            if (dscp == 0) {
                continue;
            }
            Integer before = queueOfDscp.putIfAbsent(dscp, q);
            if (before != null && before != q) {
                throw new IllegalArgumentException("DSCP " + dscp + " would go to queues " + before + " and " + q);
            }
        }
        // A queue no Saba DSCP points at (the controller's queue 0, which holds level 0, i.e. untagged traffic)
        // carries only what falls into the non-Saba class, so its weight is that class's. The queues that do
        // carry Saba levels must fit in C_Saba; the non-Saba class holds the rest of the link.
        java.util.Set<Integer> sabaQueues = new java.util.TreeSet<>(queueOfDscp.values());
        double sabaSum = 0;
        for (int q : sabaQueues) {
            sabaSum += w[q];
        }
        if (sabaSum > cSaba + EPS) {
            throw new IllegalArgumentException(String.format(
                    "weights of the queues carrying Saba levels sum to %.6f, above C_Saba = %.6f", sabaSum, cSaba));
        }
        if (sum > 1 + EPS) {
            throw new IllegalArgumentException(String.format("queue weights sum to %.6f, above the link", sum));
        }
        double nonSabaShare = Math.max(1.0 - sabaSum, MIN_SHARE);
        // Saba's smallest queue gets one frame per round; others proportionally more, so that spare bandwidth
        // left by an idle queue is shared in the ratio of the weights (HTB lends by quantum, not by rate).
        List<HtbClass> queues = new ArrayList<>();
        double smallestQueue = Double.MAX_VALUE;
        for (int q : sabaQueues) {
            smallestQueue = Math.min(smallestQueue, Math.max(w[q], MIN_SHARE));
        }
        for (int q : sabaQueues) {
            double share = Math.max(w[q], MIN_SHARE);
            queues.add(new HtbClass(FIRST_QUEUE_MINOR + q, rate(share, linkBps), quantum(share / smallestQueue)));
        }
        HtbClass nonSaba = new HtbClass(NON_SABA_MINOR, rate(nonSabaShare, linkBps),
                quantum(sabaQueues.isEmpty() ? 1 : nonSabaShare / smallestQueue));
        return new HtbPlan(linkBps, nonSaba, queues, queueOfDscp, classOfEveryDscp(a, dscpMap, nonSaba),
                leafLimit(linkBps, bufferSeconds));
    }

    private static SortedMap<Integer, String> classOfEveryDscp(PortAllocation a, DscpMap dscpMap, HtbClass nonSaba) {
        SortedMap<Integer, Integer> present = new TreeMap<>(); // level → queue, Saba levels on the port
        a.queueOfLevel().forEach((level, q) -> {
            if (dscpMap.dscp(level) != 0) {
                present.put(level, q);
            }
        });
        SortedMap<Integer, String> out = new TreeMap<>();
        for (int level = 0; level < dscpMap.levels(); level++) {
            int dscp = dscpMap.dscp(level);
            if (dscp == 0 || out.containsKey(dscp)) {
                continue;
            }
            Integer nearest = null;
            for (int l : present.keySet()) { // ascending: the first of two equally near levels is the lower one
                if (nearest == null || Math.abs(l - level) < Math.abs(nearest - level)) {
                    nearest = l;
                }
            }
            out.put(dscp, nearest == null ? nonSaba.classId() : queueClassId(present.get(nearest)));
        }
        return out;
    }

    private static long rate(double share, long linkBps) {
        return Math.max(8, Math.round(share * linkBps));
    }

    private static int quantum(double ratioToSmallest) {
        return (int) Math.max(BASE_QUANTUM, Math.min(MAX_QUANTUM, Math.round(BASE_QUANTUM * ratioToSmallest)));
    }
}
