/**
 * RPerf for Saba: measuring what a switch does to latency-sensitive traffic when bandwidth-hungry
 * traffic shares it (Katebzadeh, Costa, Grot, ISPASS 2020, "Choose latency or bandwidth, but not both").
 *
 * <p>Two halves, one idea each:
 * <ul>
 *   <li>{@link io.saba.rperf.switchmodel} — a packet-level discrete-event model of an InfiniBand-like
 *       switch (input buffers, credits, FCFS / round-robin / VL arbitration) that reproduces the
 *       paper's simulator figures (§VIII) and is checked against hand-computed small cases;</li>
 *   <li>{@link io.saba.rperf.tool} — the measuring tool over real TCP sockets: closed-loop latency
 *       generators (LSG), open-loop bandwidth generators (BSG), DSCP per generator, loopback-subtracted
 *       RTT, HdrHistogram percentiles, perftest-style columns and CSV.</li>
 * </ul>
 */
package io.saba.rperf;
