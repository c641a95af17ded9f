package io.saba.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.SignalsProto;
import io.saba.wire.WorkSignals;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Flink's task numbers in the terms of Spark's stage signals. */
class TaskWorkTest {
    private static TaskWork work(double busy, boolean readsShuffle, String name) {
        return new TaskWork("task v_1_0", name, 1_000, 5_000, busy, 700, 300, readsShuffle, 9_000, 8_000, 6_000,
                2_000, 3, 1, 4, 100, 90, false);
    }

    @Test
    void aConsumersRunIsBusyIdleAndBackPressuredAndItsNetworkWaitIsIdleAndBackPressured() {
        WorkSignals s = work(2_000.4, true, "Keyed Reduce (2/4)#0").signals();
        assertEquals("task v_1_0", s.unit());
        assertEquals("Keyed Reduce (2/4)#0", s.name());
        assertEquals(5_000, s.endUnixMillis());
        assertEquals(1, s.tasks());
        assertEquals(4_000, s.durationMillis(), "deployment to end");
        assertEquals(3_000, s.runMillis(), "busy + idle + back-pressured");
        assertEquals(1_000, s.networkWaitMillis(), "waiting for input buffers or for output buffers");
        assertEquals(Map.of("busy", 2_000L, "idle", 700L, "back_pressured", 300L), s.timeMillis());
        assertEquals(Map.of("shuffle_read", 9_000L, "shuffle_write", 8_000L, "shuffle_remote_read", 6_000L,
                "shuffle_local_read", 2_000L, WorkSignals.BUSIEST_HOST_IN, 6_000L), s.bytes(),
                "the remote input is what crossed into the task's host");
        assertEquals(Map.of("shuffle_remote_buffers", 3L, "shuffle_local_buffers", 1L, "shuffle_buffers_written", 4L,
                "records_in", 100L, "records_out", 90L), s.counts());
    }

    @Test
    void aSourcesIdleTimeIsNotNetworkWait() {
        WorkSignals s = work(2_000, false, "Source: Sequence (1/4)#0").signals();
        assertEquals(300, s.networkWaitMillis(), "only back-pressure: its idle time waits for its source");
        assertEquals(3_000, s.runMillis());
    }

    @Test
    void withoutFlinksBusyTimeTheWallClockBoundsTheRun() {
        WorkSignals s = work(Double.NaN, true, "legacy").signals();
        assertEquals(4_000, s.runMillis());
        assertFalse(s.timeMillis().containsKey("busy"));
        assertEquals(1_000, s.networkWaitMillis());
    }

    @Test
    void zerosAreLeftOutButTheBusiestHostsFailuresCountedAndNamesFitTheContract() {
        WorkSignals s = new TaskWork("task v_0_1", "a\tb" + "x".repeat(400), 10, 5, 0, 0, 0, true, 0, 0, 0, 0, 0, 0,
                0, 0, 0, true).signals();
        assertEquals(0, s.durationMillis(), "a clock that stepped back counts nothing");
        assertEquals(Map.of(), s.timeMillis());
        assertEquals(Map.of(WorkSignals.BUSIEST_HOST_IN, 0L), s.bytes(), "the busiest host's bytes, 0 included");
        assertEquals(Map.of("failed_tasks", 1L), s.counts());
        assertEquals(SignalsProto.MAX_NAME, s.name().length());
        assertTrue(s.name().startsWith("a b"));
        assertEquals(s, SignalsProto.fromProto(SignalsProto.toProto("job", s)), "the controller accepts it");
    }
}
