/**
 * The Saba library that applications embed (the paper's Table 4.1): register and receive a priority level, report
 * connections opened and closed, deregister; plus DSCP mapping and socket tagging helpers.
 *
 * <p>Entry point: {@link io.saba.client.SabaClient}. It never blocks, slows or fails its caller: every call returns
 * at once, work happens on one sender thread, and a missing controller means level 0 (best effort) until it returns.
 */
package io.saba.client;
