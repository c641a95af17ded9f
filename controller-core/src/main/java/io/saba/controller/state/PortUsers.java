package io.saba.controller.state;

import io.saba.core.alloc.PortApps;
import java.util.Arrays;

/**
 * The applications crossing one port with how many of their open connections do, kept sorted by application id as
 * connections come and go: a recomputation of the port then copies them in order ({@link #snapshot}) instead of
 * looking each up, building records and sorting them. Mutated only under the controller's lock.
 */
final class PortUsers {
    private AppRecord[] apps = new AppRecord[4];
    /** The applications' ids beside them: the search compares ids without reaching through each record. */
    private String[] ids = new String[4];
    private int[] connections = new int[4];
    private int size;

    /** One more connection of {@code app} crosses the port; true if it is the application's first. */
    boolean add(AppRecord app) {
        int i = indexOf(app.appId);
        if (i >= 0) {
            connections[i]++;
            return false;
        }
        int at = -i - 1;
        if (size == apps.length) {
            apps = Arrays.copyOf(apps, 2 * size);
            ids = Arrays.copyOf(ids, 2 * size);
            connections = Arrays.copyOf(connections, 2 * size);
        }
        System.arraycopy(apps, at, apps, at + 1, size - at);
        System.arraycopy(ids, at, ids, at + 1, size - at);
        System.arraycopy(connections, at, connections, at + 1, size - at);
        apps[at] = app;
        ids[at] = app.appId;
        connections[at] = 1;
        size++;
        return true;
    }

    /**
     * One connection of {@code app} no longer crosses the port; true if none does any more (or none did: the port's
     * allocation is then recomputed, which is harmless).
     */
    boolean remove(AppRecord app) {
        int i = indexOf(app.appId);
        if (i < 0) {
            return true;
        }
        if (--connections[i] > 0) {
            return false;
        }
        System.arraycopy(apps, i + 1, apps, i, size - i - 1);
        System.arraycopy(ids, i + 1, ids, i, size - i - 1);
        System.arraycopy(connections, i + 1, connections, i, size - i - 1);
        apps[--size] = null;
        ids[size] = null;
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * The applications with their levels and models as they are now, in id order. Level 0 is the default class
     * (queue 0, no Saba share): only a group member holds such applications, before its leader's plan covers a new
     * workload, and they are left out.
     */
    PortApps snapshot() {
        PortApps.Builder b = new PortApps.Builder(size);
        for (int i = 0; i < size; i++) {
            AppRecord a = apps[i];
            if (a.level != 0) {
                b.add(a.appId, a.workload, a.level, a.model, a.modelId, connections[i]);
            }
        }
        return b.build();
    }

    private int indexOf(String appId) {
        int lo = 0;
        int hi = size - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = ids[mid].compareTo(appId);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }
}
