/**
 * The Linux traffic-control fabric backend: Saba's weighted queues as HTB classes on a port's egress, selected by
 * u32 filters on the DSCP field of IPv4 and IPv6 packets; plus host-side DSCP tagging by local port with nftables.
 *
 * <p>Tree installed on every managed port (handles in hex, as tc reads them):
 * <pre>
 * 1:    htb root qdisc, default 1:10
 * 1:1   class at the link rate (rate = ceil = link): the link-rate limit
 * 1:10  traffic outside Saba (untagged, DSCP 0, unknown DSCPs): rate (1 - C_Saba)·link, ceil link
 * 1:20+q  Saba queue q: rate w_q·link, ceil link (work-conserving), quantum proportional to w_q
 * u32 filters on parent 1:, for every Saba DSCP of the map, to the class of its level (or of the nearest level there):
 *   prio 1, protocol ip,   handle 800::(dscp+1):    TOS           &amp; 0xfc == dscp&lt;&lt;2
 *   prio 2, protocol ipv6, handle (table)::(dscp+1): traffic class &amp; 0xfc == dscp&lt;&lt;2
 * </pre>
 * The first three are also what the namespace testbed installs as its plain link (one FIFO at the link rate), so
 * the backend takes over a testbed port by adding classes and filters, and gives it back by removing them.
 * The IPv6 filters' hash table is the kernel's choice (see {@link io.saba.controller.fabric.linux.DscpFilters}).
 */
package io.saba.controller.fabric.linux;
