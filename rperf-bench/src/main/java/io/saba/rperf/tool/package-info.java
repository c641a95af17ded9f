/**
 * RPerf over real sockets: a server ({@link io.saba.rperf.tool.RperfServer}) and generators that load it.
 *
 * <p>Usage: {@code saba rperf server --port 18515} on the destination, then on each source
 * {@code saba rperf client --host 10.0.0.1 --lsg 1 --bsg 3 --duration 10 --lsg-dscp 46}. Everything binds
 * to plain host addresses and opens a 127.0.0.1 socket for the loopback reference, so it runs unchanged
 * inside {@code ip netns exec} (the namespace's {@code lo} must be up).
 *
 * <p>Generators: an LSG is closed loop (one message outstanding; the server answers each message with an
 * 8-byte acknowledgement, as an RC NIC would); a BSG is open loop (writes back to back, batching small
 * messages into one write) and its goodput is what the server counted. Each generator has its own TCP
 * connection and its own DSCP (IP_TOS), so a switch can classify them.
 *
 * <p>Measurement pitfalls, on purpose next to the API that handles them:
 * <ul>
 *   <li><b>Local-side processing</b> (RPerf §IV): every over-the-wire request is paired with a request to an
 *       in-process echo server on 127.0.0.1, posted at the same moment; RTT = T_W − T_L. Over TCP the
 *       loopback request crosses the kernel stack twice and wakes a local thread, so the subtraction removes
 *       software cost on both ends to first order, not exactly; both the plain end-to-end RTT and the
 *       subtracted one are reported so the two can be compared.</li>
 *   <li><b>Coordinated omission</b>: a closed-loop LSG measures the service of one outstanding message, which
 *       is what RPerf's LSG means; it is not a request-rate load test, so no expected-interval correction
 *       is applied to it. BSGs report bandwidth only.</li>
 *   <li><b>Warm-up</b>: samples from the first seconds (JIT, TCP slow start) are dropped.</li>
 * </ul>
 * There are no RDMA generators; {@link io.saba.rperf.tool.RdmaProbe} says what is missing and an RDMA run
 * fails with that reason.
 */
package io.saba.rperf.tool;
