package io.saba.rperf.switchmodel;

import java.util.ArrayDeque;

/**
 * One VL's buffer at one switch input port: a FIFO of bounded bytes. Space is never overrun because
 * the upstream {@link OutputPort} only starts a packet when it holds credits for it; when a packet
 * leaves, its bytes go back to the upstream sender as credits (after the configured credit delay).
 */
final class InputBuffer implements PacketQueue {
    final int port;
    final int vl;
    int capacityBytes;
    private final ArrayDeque<Packet> packets = new ArrayDeque<>();
    private int usedBytes;
    /** The sender feeding this buffer; null only in tests that fill the buffer by hand. */
    OutputPort upstream;
    private final EventQueue clock;
    private final long creditDelayPs;

    InputBuffer(int port, int vl, int capacityBytes, EventQueue clock, long creditDelayPs) {
        this.port = port;
        this.vl = vl;
        this.capacityBytes = capacityBytes;
        this.clock = clock;
        this.creditDelayPs = creditDelayPs;
    }

    void add(Packet p) {
        if (usedBytes + p.wireBytes > capacityBytes) {
            // Credits make this impossible; reaching it means the flow control is broken.
            throw new IllegalStateException("input buffer overrun at port " + port + " vl " + vl + ": " + p);
        }
        usedBytes += p.wireBytes;
        packets.addLast(p);
    }

    @Override
    public Packet head(long now) {
        return packets.peekFirst();
    }

    /** The packet at the head, or null. */
    Packet head() {
        return packets.peekFirst();
    }

    @Override
    public Packet poll(long now) {
        Packet p = packets.pollFirst();
        if (p != null) {
            usedBytes -= p.wireBytes;
            if (upstream != null) {
                long at = now + creditDelayPs;
                if (upstream.busy(at)) {
                    // The sender cannot look at its credits before it is done sending, after they arrive anyway.
                    upstream.addCredits(vl, p.wireBytes);
                } else {
                    clock.credit(at, upstream, vl, p.wireBytes);
                }
            }
        }
        return p;
    }

    int usedBytes() {
        return usedBytes;
    }

    int size() {
        return packets.size();
    }
}
