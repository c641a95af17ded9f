package io.saba.rperf.tool;

import java.util.Locale;

/**
 * One generator of a run: kind, message size, IP TOS byte (-1 = leave the system default), batch (messages
 * per write, BSG only). Parsed from {@code lsg:size=64,dscp=46} or {@code bsg:size=4096,tos=0,batch=16}.
 */
public record GeneratorSpec(Kind kind, int size, int tos, int batch) {
    /** Closed-loop latency generator or open-loop bandwidth generator. */
    public enum Kind { LSG, BSG }

    public GeneratorSpec {
        if (size < 8) {
            throw new IllegalArgumentException("message size must be >= 8 bytes (it carries a sequence number)");
        }
        if (tos > 255) {
            throw new IllegalArgumentException("TOS is one byte: " + tos);
        }
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1");
        }
    }

    public static GeneratorSpec lsg(int size, int tos) {
        return new GeneratorSpec(Kind.LSG, size, tos, 1);
    }

    public static GeneratorSpec bsg(int size, int tos, int batch) {
        return new GeneratorSpec(Kind.BSG, size, tos, batch);
    }

    public static GeneratorSpec parse(String text) {
        String[] head = text.split(":", 2);
        Kind kind = Kind.valueOf(head[0].trim().toUpperCase(Locale.ROOT));
        int size = kind == Kind.LSG ? 64 : 4096;
        int tos = -1;
        int batch = 1;
        if (head.length > 1 && !head[1].isBlank()) {
            for (String kv : head[1].split(",")) {
                String[] p = kv.split("=", 2);
                if (p.length != 2) {
                    throw new IllegalArgumentException("expected key=value in " + text);
                }
                int v = Integer.decode(p[1].trim());
                switch (p[0].trim()) {
                    case "size" -> size = v;
                    case "tos" -> tos = v;
                    case "dscp" -> tos = dscpToTos(v);
                    case "batch" -> batch = v;
                    default -> throw new IllegalArgumentException("unknown generator option " + p[0]);
                }
            }
        }
        return new GeneratorSpec(kind, size, tos, batch);
    }

    /** DSCP occupies the upper six bits of the TOS byte. */
    public static int dscpToTos(int dscp) {
        if (dscp < 0 || dscp > 63) {
            throw new IllegalArgumentException("DSCP is 0-63: " + dscp);
        }
        return dscp << 2;
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(Locale.ROOT) + ":size=" + size + (tos >= 0 ? ",tos=" + tos : "")
                + (batch > 1 ? ",batch=" + batch : "");
    }
}
