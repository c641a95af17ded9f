package io.saba.controller.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.alloc.AppAtPort;
import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A port's applications kept sorted as connections come and go say what a map of application → connections would:
 * who joined, who left, and, in id order, each one's connections, level and model at the time of the snapshot.
 */
class PortUsersTest {
    @Test
    void followsAMapOfConnectionsPerApplicationThroughRandomEvents() {
        SensitivityModel m = SensitivityModel.of(2, -1);
        List<AppRecord> apps = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            AppRecord a = new AppRecord("app-" + i, "");
            a.workload = "w" + (i % 3);
            a.level = 1 + i % 3;
            a.model = m;
            a.modelId = 0;
            apps.add(a);
        }
        Random r = new Random(23);
        PortUsers users = new PortUsers();
        Map<String, Integer> expected = new TreeMap<>();
        for (int step = 0; step < 20_000; step++) {
            AppRecord a = apps.get(r.nextInt(apps.size()));
            boolean there = expected.containsKey(a.appId);
            if (r.nextBoolean() || !there) {
                assertEquals(!there, users.add(a), "first connection of " + a.appId + " joins");
                expected.merge(a.appId, 1, Integer::sum);
            } else {
                boolean last = expected.get(a.appId) == 1;
                assertEquals(last, users.remove(a), "last connection of " + a.appId + " leaves");
                expected.computeIfPresent(a.appId, (k, n) -> n == 1 ? null : n - 1);
            }
            if (step % 97 == 0) {
                apps.get(r.nextInt(apps.size())).level = r.nextInt(4); // a new plan; level 0 is left out
                List<AppAtPort> want = new ArrayList<>();
                for (Map.Entry<String, Integer> e : expected.entrySet()) {
                    AppRecord x = apps.get(Integer.parseInt(e.getKey().substring(4)));
                    if (x.level != 0) {
                        want.add(new AppAtPort(x.appId, x.workload, x.level, x.model, e.getValue()));
                    }
                }
                assertEquals(want, users.snapshot().asList(), "step " + step);
            }
            assertEquals(expected.isEmpty(), users.isEmpty());
        }
        assertTrue(new PortUsers().remove(apps.get(0)),
                "removing an application that is not there reports the port as changed (recomputed, harmlessly)");
    }
}
