package io.saba.rperf.switchmodel;

/**
 * Something an output port can take packets from: a switch input buffer, a host's generator, a host's
 * ACK queue. Only the head competes in arbitration (head-of-line blocking is the point of §VIII-B).
 */
interface PacketQueue {
    /** The packet that would leave next, or null when nothing is queued. Must not change state visibly. */
    Packet head(long now);

    /** Removes and returns the head; {@code now} is the time it starts on the output link. */
    Packet poll(long now);
}
