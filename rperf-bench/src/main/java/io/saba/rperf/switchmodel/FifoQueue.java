package io.saba.rperf.switchmodel;

import java.util.ArrayDeque;

/** An unbounded FIFO: a host's ACK queue. */
final class FifoQueue implements PacketQueue {
    private final ArrayDeque<Packet> packets = new ArrayDeque<>();

    void add(Packet p) {
        packets.addLast(p);
    }

    @Override
    public Packet head(long now) {
        return packets.peekFirst();
    }

    @Override
    public Packet poll(long now) {
        return packets.pollFirst();
    }

    int size() {
        return packets.size();
    }
}
