package io.saba.wire;

/** How a connection moves its bytes; the fabric tags them differently (DSCP on TCP, SL on an RDMA QP). */
public enum Transport {
    TCP,
    RDMA
}
