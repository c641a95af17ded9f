package io.saba.rperf.tool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;

/**
 * BSG: an open-loop bandwidth generator. Writes messages back to back, {@code batch} messages per write
 * (small messages otherwise cost one system call each and never fill the link), counts what it wrote
 * inside the measurement window, then shuts its output and reads the server's received-byte count.
 */
public final class BandwidthGenerator implements Callable<BandwidthResult> {
    private final GeneratorSpec spec;
    private final InetSocketAddress server;
    private final RunWindow window;

    public BandwidthGenerator(GeneratorSpec spec, InetSocketAddress server, RunWindow window) {
        this.spec = spec;
        this.server = server;
        this.window = window;
    }

    @Override
    public BandwidthResult call() throws IOException {
        try (SocketChannel ch = Wire.connect(server, spec.tos())) {
            Wire.writeFully(ch, Wire.hello(Wire.BANDWIDTH, spec.size()));
            ByteBuffer batch = ByteBuffer.allocateDirect(spec.size() * spec.batch());
            window.awaitStart();
            long total = 0;
            long inWindow = 0;
            long messages = 0;
            long firstIn = -1;
            long lastIn = -1;
            while (!window.over()) {
                batch.clear();
                Wire.writeFully(ch, batch);
                long now = System.nanoTime();
                total += batch.capacity();
                if (window.measuring(now)) {
                    if (firstIn < 0) {
                        firstIn = now;
                    } else {
                        inWindow += batch.capacity();
                        messages += spec.batch();
                    }
                    lastIn = now;
                }
            }
            ch.shutdownOutput();
            ByteBuffer count = ByteBuffer.allocate(8);
            Wire.readFully(ch, count);
            long span = firstIn < 0 ? 0 : lastIn - firstIn;
            return new BandwidthResult(spec, inWindow, span, messages, count.getLong(0), total);
        }
    }
}
