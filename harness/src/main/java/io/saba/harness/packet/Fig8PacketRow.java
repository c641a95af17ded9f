package io.saba.harness.packet;

/**
 * One job of one {@code fig8-packet} setup under one {@link Fig8Scheme}: its completion time in simulated seconds of
 * the packet model, or of the fluid simulator for the fluid schemes (speedups compare a scheme with a baseline of
 * the same simulator only).
 */
public record Fig8PacketRow(int setup, Fig8Scheme scheme, String job, String workload, double datasetScale,
                            int instances, double seconds) {
}
