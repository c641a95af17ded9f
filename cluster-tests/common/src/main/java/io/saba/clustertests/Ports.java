package io.saba.clustertests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Free loopback ports, picked at run time. */
public final class Ports {
    /** Linux's default ephemeral range starts here: a listening port below it is never a client's port. */
    private static final int EPHEMERAL = 32_768;

    private Ports() {
    }

    /** A port the kernel just handed out and took back. */
    public static int free() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first of {@code n} consecutive ports below the ephemeral range that are all free now. Servers pinned there
     * make a capture filter by port exact: the other end of each of their connections is an ephemeral port.
     */
    public static int freeBlock(int n) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = 20_000 + n * ThreadLocalRandom.current().nextInt((EPHEMERAL - 20_000) / n - 1);
            if (allFree(first, n)) {
                return first;
            }
        }
        throw new IllegalStateException("no " + n + " consecutive free ports between 20000 and " + EPHEMERAL);
    }

    private static boolean allFree(int first, int n) {
        for (int p = first; p < first + n; p++) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
            } catch (IOException inUse) {
                return false;
            }
        }
        return true;
    }
}
