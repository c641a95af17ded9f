package io.saba.controller.fabric.infiniband;

import java.util.Map;

/**
 * The SL→VL table Saba writes: SL = priority level (the client gives a level-L connection SL L), VL = the queue
 * the port's allocation maps that level to; levels not present on the port go to VL 0, the non-Saba VL. Payload:
 * 16 four-bit entries, SL 2i in the high nibble of byte i.
 */
public final class Sl2Vl {
    public static final int SLS = 16;

    private Sl2Vl() {
    }

    public static byte[] encode(Map<Integer, Integer> queueOfLevel) {
        byte[] out = new byte[Smp.DATA_BYTES];
        for (int sl = 0; sl < SLS; sl++) {
            int vl = queueOfLevel.getOrDefault(sl, 0);
            if (vl < 0 || vl > 14) {
                throw new IllegalArgumentException("level " + sl + " maps to queue " + vl + ", not a data VL (0..14)");
            }
            out[sl / 2] |= (byte) (sl % 2 == 0 ? vl << 4 : vl);
        }
        queueOfLevel.keySet().forEach(l -> {
            if (l < 0 || l >= SLS) {
                throw new IllegalArgumentException("level " + l + " has no InfiniBand SL (0..15)");
            }
        });
        return out;
    }

    public static int vlOf(byte[] table, int sl) {
        return sl % 2 == 0 ? (table[sl / 2] >> 4) & 0x0f : table[sl / 2] & 0x0f;
    }

    /** "0 1 2 …" for messages. */
    public static String describe(byte[] table) {
        StringBuilder b = new StringBuilder();
        for (int sl = 0; sl < SLS; sl++) {
            b.append(sl == 0 ? "" : " ").append(vlOf(table, sl));
        }
        return b.toString();
    }
}
