package io.saba.controller.group;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Drives a client: registers applications, then opens and closes connections between the 16 hosts. */
final class GroupDriver {
    private static final String[] WORKLOADS = {"lr", "pr", "svm", "wc", "sort", "unknown-etl"};

    final SabaClient client;
    final List<SabaApplication> apps = new ArrayList<>();
    final Map<String, Set<ConnectionKey>> open = new HashMap<>();
    private int next;

    GroupDriver(String targets, int apps) {
        client = SabaClient.connect(ClientConfig.defaults(targets).withBackoff(Duration.ofMillis(50),
                Duration.ofMillis(500)));
        for (int i = 0; i < apps; i++) {
            SabaApplication a = client.register(new AppSpec("app-" + i, WORKLOADS[i % WORKLOADS.length], "test",
                    "u", 0));
            this.apps.add(a);
            open.put("app-" + i, new HashSet<>());
        }
    }

    /** One step: open a connection, and close an older one every third step. */
    void step() {
        int n = next++;
        SabaApplication a = apps.get(n % apps.size());
        int src = 1 + (n * 7) % 16;
        int dst = 1 + (n * 7 + 5 + n % 9) % 16;
        if (src == dst) {
            dst = dst % 16 + 1;
        }
        InetSocketAddress s = new InetSocketAddress("10.0.0." + src, 20_000 + n);
        InetSocketAddress d = new InetSocketAddress("10.0.0." + dst, 7337);
        a.connectionOpened(s, d, Transport.TCP);
        open.get(a.spec().appId()).add(new ConnectionKey(s.getAddress().getHostAddress(), s.getPort(),
                d.getAddress().getHostAddress(), d.getPort(), Transport.TCP));
        if (n % 3 == 2) {
            int m = n - 2;
            SabaApplication b = apps.get(m % apps.size());
            ConnectionKey k = open.get(b.spec().appId()).stream()
                    .filter(c -> c.srcPort() == 20_000 + m).findFirst().orElseThrow();
            b.connectionClosed(new InetSocketAddress(k.srcIp(), k.srcPort()),
                    new InetSocketAddress(k.dstIp(), k.dstPort()), Transport.TCP);
            open.get(b.spec().appId()).remove(k);
        }
    }

    void steps(int count, long pauseMillis) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            step();
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
        }
    }

    /** The client's picture as the controller should hold it. */
    Map<String, Set<ConnectionKey>> expected() {
        Map<String, Set<ConnectionKey>> out = new TreeMap<>();
        open.forEach((k, v) -> out.put(k, new HashSet<>(v)));
        return out;
    }
}
