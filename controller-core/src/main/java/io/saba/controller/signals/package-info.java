/**
 * Work signals the applications report (issue #20: what their stages or tasks spent blocked on the network and
 * moved), kept per application, bounded, for the status pages; raw, not yet turned into an estimate.
 */
package io.saba.controller.signals;
