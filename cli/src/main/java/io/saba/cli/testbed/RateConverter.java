package io.saba.cli.testbed;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses "100mbit", "1gbit", "500kbit" or a bare number of bit/s (tc's spelling, decimal units). */
public final class RateConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return parse(value);
    }

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
        try {
            double d = Double.parseDouble(v);
            if (!(d > 0)) {
                throw new TypeConversionException("rate must be positive: " + value);
            }
            return Math.round(d * mult);
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a rate like 100mbit or 1gbit");
        }
    }
}
