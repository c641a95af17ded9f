package io.saba.rperf.tool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Callable;
import org.HdrHistogram.Histogram;

/**
 * LSG: a closed-loop latency generator. Each iteration posts one message to the server and, at the same
 * moment, one to the local loopback echo; it timestamps each acknowledgement as it lands (a selector
 * stands in for polling a completion queue) and records T_W − T_P, T_L − T_P and T_W − T_L.
 */
public final class LatencyGenerator implements Callable<LatencyResult> {
    private static final long MAX_NS = 60_000_000_000L;

    private final GeneratorSpec spec;
    private final InetSocketAddress server;
    private final InetSocketAddress loopback;
    private final RunWindow window;
    private final long maxIterations;
    private final boolean busyPoll;

    /**
     * @param loopback      the local echo server, or null to skip loopback subtraction
     * @param maxIterations stop after this many measured iterations (0: run the whole window)
     * @param busyPoll      spin on selectNow() instead of sleeping in select() (lower jitter, one core)
     */
    public LatencyGenerator(GeneratorSpec spec, InetSocketAddress server, InetSocketAddress loopback,
                            RunWindow window, long maxIterations, boolean busyPoll) {
        this.spec = spec;
        this.server = server;
        this.loopback = loopback;
        this.window = window;
        this.maxIterations = maxIterations;
        this.busyPoll = busyPoll;
    }

    @Override
    public LatencyResult call() throws IOException {
        Histogram e2e = new Histogram(MAX_NS, 3);
        Histogram lb = loopback == null ? null : new Histogram(MAX_NS, 3);
        Histogram sub = loopback == null ? null : new Histogram(MAX_NS, 3);
        long negative = 0;
        try (SocketChannel wire = open(server); SocketChannel local = loopback == null ? null : open(loopback);
             Selector sel = Selector.open()) {
            ByteBuffer msgW = ByteBuffer.allocateDirect(spec.size());
            ByteBuffer msgL = ByteBuffer.allocateDirect(spec.size());
            ByteBuffer ackW = ByteBuffer.allocateDirect(Wire.ACK_BYTES);
            ByteBuffer ackL = ByteBuffer.allocateDirect(Wire.ACK_BYTES);
            wire.configureBlocking(false);
            SelectionKey kw = wire.register(sel, SelectionKey.OP_READ, ackW);
            SelectionKey kl = null;
            if (local != null) {
                local.configureBlocking(false);
                kl = local.register(sel, SelectionKey.OP_READ, ackL);
            }
            window.awaitStart();
            long seq = 0;
            while (!window.over() && (maxIterations == 0 || e2e.getTotalCount() < maxIterations)) {
                seq++;
                msgW.clear();
                msgW.putLong(0, seq);
                msgL.clear();
                msgL.putLong(0, seq);
                ackW.clear();
                ackL.clear();
                long tp = System.nanoTime();
                Wire.writeFully(wire, msgW);
                if (local != null) {
                    Wire.writeFully(local, msgL);
                }
                long tw = -1;
                long tl = local == null ? 0 : -1;
                while (tw < 0 || tl < 0) {
                    int n = busyPoll ? sel.selectNow() : sel.select(1000);
                    if (n == 0) {
                        continue;
                    }
                    long t = System.nanoTime();
                    for (SelectionKey k : sel.selectedKeys()) {
                        ByteBuffer ack = (ByteBuffer) k.attachment();
                        if (((SocketChannel) k.channel()).read(ack) < 0) {
                            throw new IOException("server closed the connection");
                        }
                        if (!ack.hasRemaining()) {
                            if (k == kw) {
                                tw = t;
                            } else if (k == kl) {
                                tl = t;
                            }
                        }
                    }
                    sel.selectedKeys().clear();
                }
                if (ackW.getLong(0) != seq) {
                    throw new IOException("acknowledgement out of sequence: " + ackW.getLong(0) + " != " + seq);
                }
                if (!window.measuring(tp)) {
                    continue;
                }
                e2e.recordValue(tw - tp);
                if (local != null) {
                    lb.recordValue(tl - tp);
                    long d = tw - tl;
                    if (d < 0) {
                        negative++;
                        d = 0;
                    }
                    sub.recordValue(d);
                }
            }
        }
        return new LatencyResult(spec, e2e, lb, sub, negative);
    }

    private SocketChannel open(InetSocketAddress to) throws IOException {
        SocketChannel ch = Wire.connect(to, spec.tos());
        Wire.writeFully(ch, Wire.hello(Wire.LATENCY, spec.size()));
        return ch;
    }
}
