/**
 * Work signals the applications report (what their stages or tasks spent blocked on the network and
 * moved), kept per application, bounded, for the status pages; raw (the estimate made from them is in
 * {@code io.saba.controller.estimate}).
 */
package io.saba.controller.signals;
