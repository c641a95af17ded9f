package io.saba.client;

import io.saba.wire.DscpMap;

/**
 * Which tag an RDMA connection of a given priority level carries: on InfiniBand the Service Level (SL = level;
 * the controller's InfiniBand backend maps each SL to the port's VL for that level), on RoCE the IP traffic class
 * from the {@link DscpMap} (as TCP sockets get it). Pure; {@link RdmaTagging} applies it to a connection.
 */
public final class RdmaServiceLevel {
    /** InfiniBand has 16 service levels; SL 15 is not special for data traffic, VL 15 is. */
    public static final int IB_SERVICE_LEVELS = 16;

    private RdmaServiceLevel() {
    }

    /** The SL of a level (the identity, checked). */
    public static int serviceLevel(int level) {
        if (level < 0 || level >= IB_SERVICE_LEVELS) {
            throw new IllegalArgumentException("level " + level + " has no InfiniBand service level (0.."
                    + (IB_SERVICE_LEVELS - 1) + "); run the controller with levels: 16 or fewer");
        }
        return level;
    }

    /** The traffic class byte (DSCP &lt;&lt; 2) a RoCE connection of this level carries. */
    public static int trafficClass(int level, DscpMap map) {
        if (level < 0) {
            throw new IllegalArgumentException("level must be ≥ 0, got " + level);
        }
        return map.tos(level);
    }
}
