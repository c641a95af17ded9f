package io.saba.cli.testbed;

import io.saba.controller.fabric.linux.Rates;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses "100mbit", "1gbit", "500kbit" or a bare number of bit/s (tc's spelling, decimal units). */
public final class RateConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        return parse(value);
    }

    public static long parse(String value) {
        try {
            return Rates.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
