/**
 * A datacenter fabric on one machine: N hosts as network namespaces, one switch namespace holding a Linux
 * bridge, one veth per host. The switch-side veth {@code p<i>} is switch port i (its egress is what the host
 * receives); every link is shaped to the link rate on both ends, so a port is a real bottleneck that the Linux
 * backend can divide. Namespaces are named {@code saba-<testbed>-sw} and {@code saba-<testbed>-h<i>}; addresses
 * come from a private subnet that exists only inside them.
 */
package io.saba.testbed;
