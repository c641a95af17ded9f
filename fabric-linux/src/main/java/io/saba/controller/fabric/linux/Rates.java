package io.saba.controller.fabric.linux;

/** Link rates as tc spells them: "100mbit", "1gbit", "500kbit", "64000bit" or a bare number of bit/s (decimal). */
public final class Rates {
    private Rates() {
    }

    /** @throws IllegalArgumentException naming the value when it is not a positive rate */
    public static long parse(String value) {
        String v = value.trim().toLowerCase();
        long mult = 1;
        for (String[] u : new String[][] {{"gbit", "1000000000"}, {"mbit", "1000000"}, {"kbit", "1000"},
                {"bit", "1"}}) {
            if (v.endsWith(u[0])) {
                mult = Long.parseLong(u[1]);
                v = v.substring(0, v.length() - u[0].length());
                break;
            }
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + value + "' is not a rate like 100mbit or 1gbit", e);
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException("rate must be positive: " + value);
        }
        return Math.round(d * mult);
    }
}
