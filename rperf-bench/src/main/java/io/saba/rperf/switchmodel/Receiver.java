package io.saba.rperf.switchmodel;

/** The far end of a link: takes a fully received packet at input port {@code port}. */
interface Receiver {
    void receive(Packet p, int port, long now);

    /** Bytes of buffer this receiver offers per VL on {@code port}; {@link Long#MAX_VALUE} for a sink. */
    long creditsFor(int port, int vl);

    /** Tells the receiver who sends into {@code port}, so freed space can be credited back. */
    void connectUpstream(int port, OutputPort upstream);
}
