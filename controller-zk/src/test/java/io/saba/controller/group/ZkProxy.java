package io.saba.controller.group;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay between one controller and one ZooKeeper server, which can cut the path: a real network partition
 * (bytes stop flowing, connections stay open, nothing is refused) rather than a crash, so the ZooKeeper client
 * must notice by silence, as it would on a real network.
 */
final class ZkProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean cut;
    private volatile boolean closed;

    ZkProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::accept, "zk-proxy-" + server.getLocalPort());
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Stops relaying (both ways), silently. */
    void cut() {
        cut = true;
    }

    /** Relays again; connections that lived through the cut are closed so clients reconnect cleanly. */
    void heal() {
        cut = false;
        closeSockets();
    }

    private void accept() {
        while (!closed) {
            Socket in = null;
            try {
                in = server.accept();
                sockets.add(in);
                if (cut) {
                    pump(in, null); // accept, then swallow: a black hole
                    continue;
                }
                Socket out = new Socket();
                out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2_000);
                sockets.add(out);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // closed, or the server is down: the client sees a failed connection, as it would
                if (in != null) {
                    quietlyClose(in);
                }
            }
        }
    }

    private void pump(Socket fromSocket, Socket toSocket) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16384];
            try {
                InputStream from = fromSocket.getInputStream();
                OutputStream to = toSocket == null ? null : toSocket.getOutputStream();
                int n;
                while ((n = from.read(buf)) >= 0) {
                    if (!cut && to != null) {
                        to.write(buf, 0, n);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                // either side closed
            }
            quietlyClose(fromSocket); // one side ended: end the pair
            if (toSocket != null) {
                quietlyClose(toSocket);
            }
        }, "zk-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static void quietlyClose(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    private void closeSockets() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        sockets.clear();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        closeSockets();
    }
}
