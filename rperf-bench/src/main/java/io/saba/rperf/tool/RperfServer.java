package io.saba.rperf.tool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The destination of every generator: acknowledges latency messages, sinks bandwidth messages and reports
 * their byte count. One thread per connection (a handful of generators per run). Closeable: close stops
 * accepting and closes live connections.
 *
 * <pre>{@code
 * try (RperfServer s = RperfServer.start(new InetSocketAddress(0), -1)) { ... s.port() ... }
 * }</pre>
 */
public final class RperfServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RperfServer.class);

    private final ServerSocketChannel listener;
    private final int tos;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "rperf-server");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong connections = new AtomicLong();

    private RperfServer(ServerSocketChannel listener, int tos) {
        this.listener = listener;
        this.tos = tos;
    }

    /** Binds and starts accepting; {@code tos} is the IP TOS of acknowledgements (-1: the system's). */
    public static RperfServer start(InetSocketAddress bind, int tos) throws IOException {
        ServerSocketChannel l = ServerSocketChannel.open(Wire.family(bind));
        l.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        l.bind(bind, 64);
        RperfServer s = new RperfServer(l, tos);
        s.pool.execute(s::acceptLoop);
        LOG.debug("rperf server listening on {}", l.getLocalAddress());
        return s;
    }

    public int port() {
        return ((InetSocketAddress) listenerAddress()).getPort();
    }

    private java.net.SocketAddress listenerAddress() {
        try {
            return listener.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Connections served so far. */
    public long connections() {
        return connections.get();
    }

    private void acceptLoop() {
        while (listener.isOpen()) {
            try {
                SocketChannel ch = listener.accept();
                connections.incrementAndGet();
                pool.execute(() -> serve(ch));
            } catch (IOException e) {
                if (listener.isOpen()) {
                    LOG.warn("accept failed", e);
                }
            }
        }
    }

    private void serve(SocketChannel ch) {
        try (ch) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (tos >= 0) {
                ch.setOption(StandardSocketOptions.IP_TOS, tos);
            }
            ByteBuffer hello = ByteBuffer.allocate(Wire.HELLO_BYTES);
            if (!Wire.readFully(ch, hello)) {
                return;
            }
            hello.flip();
            if (hello.getInt() != Wire.MAGIC) {
                LOG.warn("not an rperf client: {}", ch.getRemoteAddress());
                return;
            }
            int mode = hello.getInt();
            int size = hello.getInt();
            if (size <= 0 || size > (64 << 20)) {
                LOG.warn("bad message size {}", size);
                return;
            }
            if (mode == Wire.LATENCY) {
                acknowledge(ch, size);
            } else if (mode == Wire.BANDWIDTH) {
                sink(ch);
            }
        } catch (IOException e) {
            LOG.debug("connection ended: {}", e.toString());
        }
    }

    private static void acknowledge(SocketChannel ch, int size) throws IOException {
        ByteBuffer msg = ByteBuffer.allocateDirect(size);
        ByteBuffer ack = ByteBuffer.allocateDirect(Wire.ACK_BYTES);
        while (true) {
            msg.clear();
            if (!Wire.readFully(ch, msg)) {
                return;
            }
            ack.clear();
            ack.putLong(0, msg.getLong(0));
            Wire.writeFully(ch, ack);
        }
    }

    private static void sink(SocketChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        long total = 0;
        while (true) {
            buf.clear();
            int n = ch.read(buf);
            if (n < 0) {
                break;
            }
            total += n;
        }
        ByteBuffer count = ByteBuffer.allocate(8).putLong(0, total);
        Wire.writeFully(ch, count);
    }

    @Override
    public void close() throws IOException {
        listener.close();
        pool.shutdownNow();
        try {
            pool.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
