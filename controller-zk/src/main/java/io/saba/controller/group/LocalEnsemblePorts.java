package io.saba.controller.group;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports for a ZooKeeper ensemble run inside one process (the group's tests, {@code saba bench group}). Curator's
 * {@code InstanceSpec} picks each of a server's three ports on its own, binding port 0 and closing it, so two picks
 * can return the same port ("Client and election port must be different": nine picks among the ~14,000 ports
 * Linux hands out for port 0 collide in a few ensembles per thousand). These are held open together while they are
 * picked, so they differ from each other; another process may still take one before the server binds it, as with
 * any free-port choice.
 */
public final class LocalEnsemblePorts {
    private LocalEnsemblePorts() {
    }

    /** {@code n} distinct ports that were free a moment ago. */
    public static int[] distinct(int n) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0);
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find " + n + " free ports", e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a listening socket nobody connected to
                }
            }
        }
    }
}
