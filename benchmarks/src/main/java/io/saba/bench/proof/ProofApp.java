package io.saba.bench.proof;

import io.saba.core.model.SensitivityModel;

/**
 * One application of the proof: where it sends from, its level, how its packets get their DSCP, its model.
 *
 * @param name       application name (also the workload)
 * @param host       sending host index (the receiver is h1)
 * @param level      priority level (DSCP from the client's DscpMap)
 * @param tagging    how the sender's packets are tagged
 * @param model      sensitivity model Eq. 2 is solved with
 * @param slot       distinct per application of a run: picks its receiver port and pinned sender port
 */
public record ProofApp(String name, int host, int level, Tagging tagging, SensitivityModel model, int slot) {
    /** How the sender's packets carry their DSCP. */
    public enum Tagging {
        /** The program sets IP_TOS on its socket (iperf3 -S), as the Saba client library does. */
        SOCKET,
        /** The program knows nothing; nftables on its host sets the DSCP by its local port. */
        NFT
    }

    /** The receiver's port for this application (one iperf3 server each). */
    public int serverPort() {
        return 5201 + slot;
    }

    /** The sender's pinned local port, which nftables tagging and the capture check key on. */
    public int clientPort() {
        return 40001 + slot;
    }

    /** The same application sending from another host, in another slot. */
    public ProofApp movedTo(int newHost, int newSlot, Tagging newTagging) {
        return new ProofApp(name + "@h" + newHost, newHost, level, newTagging, model, newSlot);
    }
}
