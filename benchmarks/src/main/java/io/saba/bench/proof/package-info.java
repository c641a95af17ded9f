/**
 * The testbed proof: real TCP traffic (iperf3) from three applications on three hosts to one receiver, through a
 * switch port first left as one FIFO (baseline) and then divided by the Linux backend with weights from Eq. 2;
 * goodput shares measured at the receiver over a steady-state window, DSCP checked on every captured packet.
 */
package io.saba.bench.proof;
