package io.saba.controller.fabric.infiniband;

/**
 * What a port's PortInfo says about its queues (IBA 14.2.5.6 byte offsets): data VLs in operation, the VL
 * arbitration tables' capacities, the high-priority limit and the MTU of the link.
 */
public record PortCaps(int operVls, int lowCap, int highCap, int highLimit, int mtuBytes) {
    /** Parses a PortInfo payload. */
    public static PortCaps parse(byte[] portInfo) {
        int operCode = (portInfo[43] >> 4) & 0x0f;
        int vls = switch (operCode) {
            case 1 -> 1;
            case 2 -> 2;
            case 3 -> 4;
            case 4 -> 8;
            case 5 -> 15;
            default -> 0;
        };
        int mtuCode = (portInfo[36] >> 4) & 0x0f;
        int mtu = mtuCode >= 1 && mtuCode <= 5 ? 128 << mtuCode : 0;
        return new PortCaps(vls, portInfo[40] & 0xff, portInfo[39] & 0xff, portInfo[38] & 0xff, mtu);
    }

    /** SMP blocks holding the low (1, 2) or high (3, 4) table: 32 entries each. */
    static int blocks(int capacity) {
        return Math.max(1, (capacity + 31) / 32);
    }
}
