package io.saba.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalsProtoTest {
    private static WorkSignals stage(String unit, long wait, long remote) {
        return new WorkSignals(unit, "groupByKey at Job.java:12", 1_700_000_000_000L, 4, 900, 2_000, wait,
                Map.of("shuffle_fetch_wait", wait, "cpu", 1_500L), Map.of("shuffle_remote_read", remote),
                Map.of("shuffle_remote_blocks", 6L));
    }

    @Test
    void whatTheClientSendsIsWhatTheControllerReads() {
        WorkSignals s = stage("stage 3.0", 120, 1 << 20);
        io.saba.proto.v1.WorkSignals p = SignalsProto.toProto("app-1", s);
        assertEquals("app-1", p.getAppId());
        assertEquals(s, SignalsProto.fromProto(p));
    }

    @Test
    void aSumAddsEveryFieldAndKind() {
        WorkSignals t = WorkSignals.none().plus(stage("stage 1.0", 100, 10)).plus(stage("stage 2.0", 20, 5)
                ).plus(new WorkSignals("stage 4.0", "", 1_800_000_000_000L, 1, 10, 10, 0, Map.of(),
                Map.of("task_result", 7L), Map.of()));
        assertEquals(WorkSignals.TOTAL, t.unit());
        assertEquals(9, t.tasks());
        assertEquals(1_810, t.durationMillis());
        assertEquals(4_010, t.runMillis());
        assertEquals(120, t.networkWaitMillis());
        assertEquals(120, t.timeMillis("shuffle_fetch_wait"));
        assertEquals(3_000, t.timeMillis("cpu"));
        assertEquals(15, t.bytes("shuffle_remote_read"));
        assertEquals(7, t.bytes("task_result"));
        assertEquals(12, t.count("shuffle_remote_blocks"));
        assertEquals(1_800_000_000_000L, t.endUnixMillis(), "the later end");
    }

    @Test
    void malformedSignalsAreRefusedNamingTheField() {
        io.saba.proto.v1.WorkSignals ok = SignalsProto.toProto("a", stage("stage 1.0", 1, 1));
        assertTrue(message(ok.toBuilder().setUnit("").build()).contains("without a unit"));
        assertTrue(message(ok.toBuilder().setName("x".repeat(300)).build()).startsWith("name is 300"));
        assertTrue(message(ok.toBuilder().putBytes("Shuffle Read", 1).build()).contains("'Shuffle Read'"));
        assertTrue(message(ok.toBuilder().setRunMillis(-1).build()).startsWith("run_millis is 18446744073709551615"));
        Map<String, Long> many = new HashMap<>();
        for (int i = 0; i < 33; i++) {
            many.put("k" + i, 1L);
        }
        assertTrue(message(ok.toBuilder().putAllCounts(many).build()).startsWith("counts has 34 kinds"));
    }

    private static String message(io.saba.proto.v1.WorkSignals p) {
        return assertThrows(IllegalArgumentException.class, () -> SignalsProto.fromProto(p)).getMessage();
    }
}
