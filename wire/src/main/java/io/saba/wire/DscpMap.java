package io.saba.wire;

import java.util.Arrays;

/**
 * Maps a priority level (PL) to the DSCP value its packets carry on Ethernet/RoCE.
 *
 * <p>Default: level L ↦ DSCP 8·(L mod 8), i.e. the class-selector code points CS0..CS7, so that switches that only
 * look at the three precedence bits (PCP-style, 8 classes) still see distinct classes. Level 0 is the default
 * class (best effort, DSCP 0) used whenever the controller is unreachable.
 */
public final class DscpMap {
    /** Ethernet's number of priority levels (InfiniBand has 16 SLs). */
    public static final int ETHERNET_LEVELS = 8;

    private final int[] dscpOfLevel;

    private DscpMap(int[] dscpOfLevel) {
        this.dscpOfLevel = dscpOfLevel;
    }

    /** CS0..CS7. */
    public static DscpMap classSelectors() {
        int[] d = new int[ETHERNET_LEVELS];
        for (int l = 0; l < d.length; l++) {
            d[l] = l * 8;
        }
        return new DscpMap(d);
    }

    /**
     * Parses "0:0,1:8,2:16" (level:dscp pairs). Levels must be 0..n-1 without gaps, DSCPs 0..63 and distinct.
     *
     * @param source names the input in error messages (a config key or file)
     */
    public static DscpMap parse(String spec, String source) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException(source + ": empty DSCP map");
        }
        String[] pairs = spec.split(",");
        int[] d = new int[pairs.length];
        Arrays.fill(d, -1);
        boolean[] used = new boolean[64];
        for (String pair : pairs) {
            String[] kv = pair.trim().split(":");
            if (kv.length != 2) {
                throw new IllegalArgumentException(source + ": '" + pair.trim() + "' is not level:dscp");
            }
            int level = parseInt(kv[0], source, "level");
            int dscp = parseInt(kv[1], source, "DSCP");
            if (level < 0 || level >= pairs.length) {
                throw new IllegalArgumentException(source + ": level " + level + " outside 0.." + (pairs.length - 1)
                        + " (levels must be numbered without gaps)");
            }
            if (dscp < 0 || dscp > 63) {
                throw new IllegalArgumentException(source + ": DSCP " + dscp + " for level " + level + " outside 0..63");
            }
            if (d[level] >= 0) {
                throw new IllegalArgumentException(source + ": level " + level + " given twice");
            }
            if (used[dscp]) {
                throw new IllegalArgumentException(source + ": DSCP " + dscp + " given to two levels");
            }
            used[dscp] = true;
            d[level] = dscp;
        }
        return new DscpMap(d);
    }

    private static int parseInt(String s, String source, String what) {
        try {
            return Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(source + ": " + what + " '" + s.trim() + "' is not an integer", e);
        }
    }

    public int levels() {
        return dscpOfLevel.length;
    }

    /** The DSCP of a level; levels beyond the table fall back to the default class. */
    public int dscp(int level) {
        return level >= 0 && level < dscpOfLevel.length ? dscpOfLevel[level] : dscpOfLevel[0];
    }

    /** The IP TOS byte (DSCP in the upper six bits, ECN bits zero) as used by IP_TOS socket options. */
    public int tos(int level) {
        return dscp(level) << 2;
    }

    /** The map as {@link #parse} reads it: {@code level:dscp} pairs in level order, e.g. {@code 0:0,1:8,2:16}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int l = 0; l < dscpOfLevel.length; l++) {
            b.append(l == 0 ? "" : ",").append(l).append(':').append(dscpOfLevel[l]);
        }
        return b.toString();
    }
}
