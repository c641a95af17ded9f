package io.saba.rperf.tool;

/**
 * What one BSG achieved: bytes written in the measurement window and the window's length (client side),
 * and the total the server acknowledged having received over the whole connection.
 */
public record BandwidthResult(GeneratorSpec spec, long windowBytes, long windowNanos, long messages,
                              long serverTotalBytes, long clientTotalBytes) {
    public double gbps() {
        return windowNanos == 0 ? 0 : windowBytes * 8.0 / windowNanos;
    }

    public double mpps() {
        return windowNanos == 0 ? 0 : messages * 1e3 / windowNanos;
    }
}
