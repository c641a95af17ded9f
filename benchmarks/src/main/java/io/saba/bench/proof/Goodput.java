package io.saba.bench.proof;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Bytes an iperf3 server received, per reporting interval (seconds since its test started). */
public record Goodput(List<Interval> intervals) {
    /** One report interval. */
    public record Interval(double start, double end, long bytes) {
    }

    /** Parses {@code iperf3 -s -J} output. */
    public static Goodput parseIperfServerJson(String json) throws IOException {
        JsonNode root = new ObjectMapper().readTree(json);
        if (root.has("error")) {
            throw new IOException("iperf3 server reported: " + root.get("error").asText());
        }
        List<Interval> list = new ArrayList<>();
        for (JsonNode i : root.path("intervals")) {
            JsonNode sum = i.path("sum");
            list.add(new Interval(sum.path("start").asDouble(), sum.path("end").asDouble(), sum.path("bytes").asLong()));
        }
        return new Goodput(list);
    }

    /**
     * Goodput in bit/s over the intervals lying wholly inside [from, to): a steady-state window that leaves out
     * slow start and the tail.
     */
    public double bitsPerSecond(double from, double to) {
        double bytes = 0;
        double seconds = 0;
        for (Interval i : intervals) {
            if (i.start() >= from - 1e-3 && i.end() <= to + 1e-3) {
                bytes += i.bytes();
                seconds += i.end() - i.start();
            }
        }
        return seconds == 0 ? 0 : bytes * 8 / seconds;
    }

    /**
     * The median of the per-interval goodputs inside [from, to). On a shared machine a sender is sometimes not
     * scheduled for a fraction of a second; its class then goes idle and the others borrow, which says nothing
     * about the queues. The median of the intervals is robust to a few such gaps; the window mean is not.
     */
    public double medianBitsPerSecond(double from, double to) {
        List<Double> bps = new ArrayList<>();
        for (Interval i : intervals) {
            if (i.start() >= from - 1e-3 && i.end() <= to + 1e-3 && i.end() > i.start()) {
                bps.add(i.bytes() * 8 / (i.end() - i.start()));
            }
        }
        if (bps.isEmpty()) {
            return 0;
        }
        return io.saba.core.stats.Stats.median(bps);
    }
}
