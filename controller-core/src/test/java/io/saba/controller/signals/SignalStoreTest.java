package io.saba.controller.signals;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.wire.WorkSignals;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SignalStoreTest {
    private static WorkSignals stage(int id) {
        return new WorkSignals("stage " + id + ".0", "", id, 2, 10, 100, 25, Map.of(),
                Map.of("shuffle_remote_read", 1_000L), Map.of());
    }

    @Test
    void keepsTheLatestUnitsAndTheSumOfAll() {
        SignalStore store = new SignalStore();
        int n = SignalStore.KEEP + 8;
        for (int i = 1; i <= n; i++) {
            store.put("a", stage(i));
        }
        AppSignals a = store.snapshot().get("a");
        assertEquals(SignalStore.KEEP, a.latest().size());
        assertEquals("stage 9.0", a.latest().get(0).unit(), "the oldest kept");
        assertEquals("stage " + n + ".0", a.latest().get(SignalStore.KEEP - 1).unit());
        assertEquals(n, a.reported());
        assertEquals(2L * n, a.total().tasks());
        assertEquals(1_000L * n, a.total().bytes("shuffle_remote_read"));
        assertEquals(0.25, a.networkWaitShare(), 1e-12);
    }

    @Test
    void applicationsNoLongerRegisteredAreForgotten() {
        SignalStore store = new SignalStore();
        store.put("a", stage(1));
        store.put("b", stage(1));
        store.retain(Set.of("b")::contains);
        assertEquals(Set.of("b"), store.snapshot().keySet());
        assertEquals(1, store.size());
    }
}
