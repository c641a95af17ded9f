package io.saba.rperf.switchmodel;

/**
 * Physical parameters of the modelled fabric. Defaults follow the RPerf paper's switch (56 Gbps FDR,
 * 200 ns port-to-port, 32 KiB input buffers as in its simulator) and IB packet overheads.
 *
 * @param linkGbps            rate of every link
 * @param headerBytes         wire overhead of a data packet: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 B
 * @param ackBytes            wire size of an RC ACK: header plus AETH 4 = 30 B
 * @param mtuBytes            largest payload per packet
 * @param switchLatencyPs     port-to-port latency: from full arrival to eligibility at the output
 * @param inputBufferBytes    per input port and per VL
 * @param propagationPs       cable delay per link
 * @param creditDelayPs       delay between a packet leaving a buffer and the upstream sender seeing the credit
 * @param ackEvery            ACK coalescing: a queue pair asks for an acknowledgement (the BTH's AckReq bit) on every
 *                            this-many-th packet and on its message's last one; the receiver acknowledges those, and
 *                            a packet marked FECN, at once, one ACK covering the packets before it. 1 (the
 *                            default): an ACK per packet
 */
public record ModelParams(double linkGbps, int headerBytes, int ackBytes, int mtuBytes, long switchLatencyPs,
                          int inputBufferBytes, long propagationPs, long creditDelayPs, int ackEvery) {

    public static final long PS_PER_NS = 1_000L;
    public static final long PS_PER_US = 1_000_000L;
    /**
     * Packets per requested ACK on the Saba paper's HCAs: Linux's mlx4 driver writes {@code MLX4_IB_ACK_REQ_FREQ} = 8
     * into every ConnectX-3 queue pair's context, whose field asks for an ACK at least every 2^8 packets (the PRM's
     * {@code ack_req_freq}); a message's last packet always asks. What the packet-level figures model by default.
     */
    public static final int CONNECTX3_ACK_EVERY = 256;

    public ModelParams {
        if (linkGbps <= 0 || headerBytes < 0 || mtuBytes <= 0 || inputBufferBytes <= 0) {
            throw new IllegalArgumentException("non-positive model parameter");
        }
        if (ackEvery < 1) {
            throw new IllegalArgumentException("an ACK every " + ackEvery + " packets: it must be 1 or more");
        }
    }

    /** The paper's simulated switch. */
    public static ModelParams paperDefaults() {
        return new ModelParams(56.0, 26, 30, 4096, 200 * PS_PER_NS, 32 * 1024, 0, 0, 1);
    }

    public ModelParams withBufferBytes(int bytes) {
        return new ModelParams(linkGbps, headerBytes, ackBytes, mtuBytes, switchLatencyPs, bytes, propagationPs,
                creditDelayPs, ackEvery);
    }

    /** Every link at {@code gbps}: what a profiler that throttles the fabric's ports sees. */
    public ModelParams withLinkGbps(double gbps) {
        return new ModelParams(gbps, headerBytes, ackBytes, mtuBytes, switchLatencyPs, inputBufferBytes, propagationPs,
                creditDelayPs, ackEvery);
    }

    public ModelParams withCreditDelayPs(long ps) {
        return new ModelParams(linkGbps, headerBytes, ackBytes, mtuBytes, switchLatencyPs, inputBufferBytes,
                propagationPs, ps, ackEvery);
    }

    /** With ACK coalescing: an acknowledgement asked for every {@code packets} packets of a queue pair. */
    public ModelParams withAckEvery(int packets) {
        return new ModelParams(linkGbps, headerBytes, ackBytes, mtuBytes, switchLatencyPs, inputBufferBytes,
                propagationPs, creditDelayPs, packets);
    }

    /** Time to put {@code wireBytes} on a link, in picoseconds (rounded to the nearest ps). */
    public long serializationPs(int wireBytes) {
        return Math.round(wireBytes * 8_000.0 / linkGbps);
    }

    /** Wire size of a data packet carrying {@code payload} bytes. */
    public int dataWireBytes(int payload) {
        return payload + headerBytes;
    }
}
