package io.saba.controller.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.wire.Transport;
import io.saba.wire.ConnectionKey;
import io.saba.controller.estimate.LearnedWorkload;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.state.Mutation;
import io.saba.core.estimate.Observation;
import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LogCodecTest {
    @Test
    void everyRequestSurvivesTheRoundTrip() {
        ConnectionKey k = new ConnectionKey("10.0.0.1", 4000, "fd00::2", 7337, Transport.TCP);
        TreeMap<String, SensitivityModel> models = new TreeMap<>(Map.of("lr", SensitivityModel.of(5, -8, 4),
                "wc", SensitivityModel.of(1.2, -0.2)));
        List<LogRequest> in = List.of(
                new LogRequest.Call("team-a", LogRequest.Kind.REGISTER,
                        List.of(new Mutation.Register("app-1", "lr", "spark", "alice", 2, "team-a"))),
                new LogRequest.Call("", LogRequest.Kind.BATCH, List.of(new Mutation.Opened("app-1", k, 7),
                        new Mutation.Closed("app-1", k, 8), new Mutation.Sync("app-1", List.of(k), 9))),
                new LogRequest.Call("", LogRequest.Kind.DEREGISTER, List.of(new Mutation.Deregister("a", "bye"))),
                new LogRequest.Renew(Map.of("app-1", "team-a")),
                new LogRequest.Expire(Map.of("app-2", "")),
                new LogRequest.Table(models, new TreeMap<>(Map.of("lr", new CorunProfile(
                        new TrafficRecord(0.5, new double[] {0, 0.25, 1}), 0.4)))),
                new LogRequest.Plan(Map.of("lr", 3, "wc", 1), Map.of(1, SensitivityModel.of(1.2, -0.2),
                        3, SensitivityModel.of(5, -8, 4)), models),
                new LogRequest.Observed(List.of(new WorkloadObservation("lr", "app-1", new Observation(2_000, 150,
                        0.625, 1_000_000)), new WorkloadObservation("etl", "", new Observation(10, 0, 1, 0)),
                        new WorkloadObservation("sort", "app-3",
                                Observation.ofLinkBytes(5_000, 1_000_000, 2e7, 0.5, 9)))),
                new LogRequest.Learned(List.of(
                        new LearnedWorkload("lr", List.of(new Observation(2_000, 150, 0.625, 1),
                                Observation.ofLinkBytes(5_000, 1_000_000, 2e7, 0.5, 9)), 3, 0, true,
                                SensitivityModel.of(1.5, -0.7, 0.1, 0.02, 0.08), Map.of("app-1",
                                List.of(Observation.ofLinkBytes(5_000, 1_000_000, 2e7, 0.5, 9)), "app-2", List.of()),
                                "app-1", 1),
                        new LearnedWorkload("etl", List.of(), 0, 2, false, null))));
        LogCodec.Entry out = LogCodec.decode(LogCodec.encode("m0-42", in));
        assertEquals("m0-42", out.nonce());
        assertEquals(in, out.requests());
    }

    @Test
    void observationsLoggedBeforeTheyNamedTheirSignalReadAsWaitObservations() throws Exception {
        // an OBSERVED entry as written before the signal byte: type 6, then run, wait, share and bytes
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeByte(LogCodec.encode("n", List.of())[0]); // the entry format, unchanged
            out.writeUTF("old");
            out.writeInt(1);
            out.writeByte(6);
            out.writeInt(1);
            out.writeUTF("lr");
            out.writeLong(2_000);
            out.writeLong(150);
            out.writeDouble(0.625);
            out.writeLong(1_000_000);
        }
        assertEquals(List.of(new LogRequest.Observed(List.of(new WorkloadObservation("lr", "",
                new Observation(2_000, 150, 0.625, 1_000_000, Observation.Signal.NETWORK_WAIT))))),
                LogCodec.decode(bytes.toByteArray()).requests());
    }

    @Test
    void aForeignFormatIsRefusedByName() {
        byte[] data = LogCodec.encode("n", List.of());
        data[0] = 9;
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> LogCodec.decode(data));
        assertTrue(e.getMessage().contains("unknown log entry format 9"), e.getMessage());
    }
}
