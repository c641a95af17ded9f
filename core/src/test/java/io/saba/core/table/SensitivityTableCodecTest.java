package io.saba.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.ModelChoice;
import io.saba.core.model.ModelFamily;
import io.saba.core.model.ModelFitter;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.ModelSelector;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.List;
import org.junit.jupiter.api.Test;

class SensitivityTableCodecTest {
    @Test
    void roundTripsEveryField() {
        var fit = ModelFitter.fit(List.of(new Sample(10, 4.5), new Sample(25, 3.4), new Sample(75, 1.3),
                new Sample(100, 1.0), new Sample(50, 2.0)), 2);
        SensitivityTable table = SensitivityTable.empty().withNote("test")
                .with(TableEntry.of("LR", fit, new ProfilingContext(8, "HiBench large", "2026-11-22", "IB 56G", "measured")));
        String json = SensitivityTableCodec.toJson(table);
        SensitivityTable back = SensitivityTableCodec.parse(json, "t.json");
        TableEntry lr = back.find("lr").orElseThrow();
        assertEquals(fit.model(), lr.model());
        assertEquals(fit.r2(), lr.r2(), 0);
        assertEquals(fit.samples(), lr.samples());
        assertEquals(8, lr.context().nodes());
        assertEquals("measured", lr.context().source());
        assertEquals("test", back.note());
        assertEquals(json, SensitivityTableCodec.toJson(back), "writing is stable");
    }

    @Test
    void aTrafficRecordRoundTripsAndGivesTheCorunProfile() {
        double c = 0.6;
        List<Sample> samples = List.of(new Sample(25, 1 - c + c / 0.25), new Sample(50, 1 - c + c / 0.5),
                new Sample(100, 1));
        TrafficRecord record = new TrafficRecord(0.1, new double[] {0.0, 0.25, 1.0, 0.5});
        TableEntry e = TableEntry.of("sort", ModelFitter.fit(samples, 1), new ProfilingContext(2, null, null, null,
                "measured")).withTraffic(record);
        String json = SensitivityTableCodec.toJson(SensitivityTable.empty().with(e));
        assertTrue(json.contains("\"version\" : 1"), "a traffic record alone keeps version 1: " + json);
        TableEntry back = SensitivityTableCodec.parse(json, "t.json").find("sort").orElseThrow();
        assertEquals(record, back.traffic());
        assertEquals(c, back.corunProfile().networkBound(), 1e-9);
        assertEquals(null, TableEntry.of("x", ModelFitter.fit(samples, 1), new ProfilingContext(2, null, null, null,
                "measured")).corunProfile(), "no record, no profile");
        String bad = json.replace("1.0, 0.5 ]", "1.0, 1.5 ]");
        assertTrue(!bad.equals(json), json);
        assertTrue(assertThrows(MalformedTableException.class, () -> SensitivityTableCodec.parse(bad, "t.json"))
                .getMessage().contains("workload 'sort': field 'traffic'"));
    }

    @Test
    void errorsNameSourceWorkloadAndField() {
        String head = "{\"format\":\"saba-sensitivity-table\",\"version\":1,\"workloads\":{";
        assertEquals("t.json: workload 'lr': field 'coefficients' must be an array of 3 numbers (c0..c2), got [1.0,2.0]",
                error(head + "\"lr\":{\"degree\":2,\"coefficients\":[1.0,2.0]}}}"));
        assertEquals("t.json: workload 'sort': field 'coefficients[1]' must be a finite number, got \"x\"",
                error(head + "\"sort\":{\"degree\":1,\"coefficients\":[1,\"x\"]}}}"));
        assertEquals("t.json: workload 'pr': field 'degree' must be an integer from 1 to 3, got 5",
                error(head + "\"pr\":{\"degree\":5,\"coefficients\":[1]}}}"));
        assertEquals("t.json: workload 'lr': field 'samples[0]' has bandwidth 0.0 % outside (0, 100]",
                error(head + "\"lr\":{\"degree\":1,\"coefficients\":[1,2],\"samples\":[{\"bandwidth_percent\":0,\"slowdown\":1}]}}}"));
        assertEquals("t.json: workload 'lr' appears twice (names ignore case)",
                error(head + "\"lr\":{\"degree\":1,\"coefficients\":[1,2]},\"LR\":{\"degree\":1,\"coefficients\":[1,2]}}}"));
        assertTrue(error("{\"format\":\"saba-sensitivity-table\",\"version\":3,\"workloads\":{}}")
                .startsWith("t.json: field 'version': this Saba reads versions 1 to 2"));
        assertTrue(error("{\"format\":\"other\"}").startsWith("t.json: field 'format'"));
        assertTrue(error("{\"format\": ").startsWith("t.json: not valid JSON at line 1"));
    }

    private static String error(String json) {
        return assertThrows(MalformedTableException.class, () -> SensitivityTableCodec.parse(json, "t.json")).getMessage();
    }

    @Test
    void profilerContextFieldsRoundTripAndOldTablesStillRead() {
        var fit = ModelFitter.fit(List.of(new Sample(10, 4.5), new Sample(50, 2.0), new Sample(100, 1.0)), 1);
        ProfilingContext ctx = new ProfilingContext(3, "small", "2026-01-02", "netns testbed 200 Mbit/s", "measured",
                "2 cores", "levels 10,50,100 x2", java.util.Map.of(1, 0.91, 2, 0.95, 3, 0.97));
        SensitivityTable t = SensitivityTable.empty().with(TableEntry.of("sort", fit, ctx));
        String json = SensitivityTableCodec.toJson(t);
        assertTrue(json.contains("\"r2_by_degree\" : {"), json);
        assertEquals(ctx, SensitivityTableCodec.parse(json, "t.json").find("sort").orElseThrow().context());
        String old = json.replaceAll("(?s),\\s*\"machine\".*?\\}\\s*\\}", "}");
        assertEquals(new ProfilingContext(3, "small", "2026-01-02", "netns testbed 200 Mbit/s", "measured"),
                SensitivityTableCodec.parse(old, "old.json").find("sort").orElseThrow().context(), old);
        String bad = json.replace("\"2\" : 0.95", "\"7\" : 0.95");
        assertEquals("t.json: workload 'sort': field 'context.r2_by_degree.7': the key must be a degree 1 to 3",
                assertThrows(MalformedTableException.class, () -> SensitivityTableCodec.parse(bad, "t.json"))
                        .getMessage());
    }

    @Test
    void aCorunEntryKeepsItsMethodAndCompetitorAndGivesThePredictorNoProfile() {
        List<Sample> samples = List.of(new Sample(25, 1.4), new Sample(50, 1.2), new Sample(100, 1.0));
        TrafficRecord record = new TrafficRecord(0.1, new double[] {0.0, 0.9, 1.0, 0.1});
        ProfilingContext ctx = new ProfilingContext(2, "tiny", "2026-01-02", "netns testbed", "measured", null, null,
                java.util.Map.of(), ProfilingMethod.corun("sort", 0.5));
        TableEntry corun = TableEntry.of("pagerank", ModelFitter.fit(samples, 1), ctx).withTraffic(record);
        String json = SensitivityTableCodec.toJson(SensitivityTable.empty().with(corun));
        assertTrue(json.contains("\"method\" : \"corun\"") && json.contains("\"competitor\" : \"sort\"")
                && json.contains("\"competitor_factor\" : 0.5"), json);
        assertTrue(!json.contains("network_bound"), "a corun entry has no network-bound share: " + json);
        TableEntry back = SensitivityTableCodec.parse(json, "t.json").find("pagerank").orElseThrow();
        assertEquals(ctx, back.context());
        assertEquals(record, back.traffic());
        // its curve already holds the competitor's idle time: the co-run predictor must not replay it again
        assertEquals(null, back.corunProfile());
        // the same samples taken under a cap do give a profile
        TableEntry cap = TableEntry.of("pagerank", ModelFitter.fit(samples, 1), ctx.withMethod(ProfilingMethod.CAP))
                .withTraffic(record);
        assertTrue(cap.corunProfile() != null);
        assertTrue(SensitivityTableCodec.toJson(SensitivityTable.empty().with(cap)).contains("\"method\" : \"cap\""));

        assertEquals("t.json: workload 'pagerank': field 'context.method': unknown method 'paced' (expected cap or "
                + "corun)", error(json.replace("\"corun\"", "\"paced\"")));
        assertEquals("t.json: workload 'pagerank': field 'context': corun profiling needs its competitor",
                error(json.replace("\"competitor\" : \"sort\",", "")));
        assertEquals("t.json: workload 'pagerank': field 'context.competitor' needs 'context.method': \"corun\"",
                error(json.replace("\"method\" : \"corun\",", "")));
    }

    @Test
    void selectionRoundTripsWithFamilyParametersAndCandidates() {
        List<Sample> samples = List.of(new Sample(10, 7.2), new Sample(25, 3.1), new Sample(50, 1.8), new Sample(75, 1.3),
                new Sample(100, 1.0), new Sample(10, 6.8), new Sample(50, 1.7));
        ModelSelection auto = ModelSelector.select(samples, ModelChoice.AUTO);
        assertEquals(ModelFamily.INVERSE, auto.chosen().family(), "these samples follow a + c/b");
        SensitivityTable t = SensitivityTable.empty().with(TableEntry.of("sort", auto, ProfilingContext.UNKNOWN));
        String json = SensitivityTableCodec.toJson(t);
        assertTrue(json.contains("\"version\" : 2"), "an inverse model needs version 2: " + json);
        assertTrue(json.contains("\"parameters\" : {"), json);
        TableEntry back = SensitivityTableCodec.parse(json, "t.json").find("sort").orElseThrow();
        assertEquals(auto.chosen().model(), back.model());
        assertEquals(ModelFamily.INVERSE, back.family());
        assertEquals(auto.chosen().cvRmse(), back.fit().cvRmse(), 0);
        assertEquals(auto.candidates().size(), back.selection().candidates().size());
        assertEquals(auto.chosenIndex(), back.selection().chosenIndex());
        for (int i = 0; i < auto.candidates().size(); i++) {
            assertEquals(auto.candidates().get(i).model(), back.selection().candidates().get(i).model());
            assertEquals(auto.candidates().get(i).cvRmse(), back.selection().candidates().get(i).cvRmse(), 0);
        }
        assertEquals(json, SensitivityTableCodec.toJson(SensitivityTableCodec.parse(json, "t.json")), "writing is stable");

        ModelSelection paper = ModelSelector.select(samples, ModelChoice.paper(3));
        String polynomialOnly = SensitivityTableCodec.toJson(SensitivityTable.empty()
                .with(TableEntry.of("sort", new ModelSelection(paper.choice(), List.of(paper.chosen()), 0,
                        paper.criterion()), ProfilingContext.UNKNOWN)));
        assertTrue(polynomialOnly.contains("\"version\" : 1"), "older readers keep reading polynomial tables");
    }

    @Test
    void versionOneTablesOfPlainCoefficientsLoadAsThePapersPolynomials() {
        String old = "{\"format\":\"saba-sensitivity-table\",\"version\":1,\"workloads\":{\"lr\":"
                + "{\"degree\":2,\"coefficients\":[5.6,-11.7,7.1],\"r2\":0.99,"
                + "\"samples\":[{\"bandwidth_percent\":10,\"slowdown\":4.5}]}}}";
        TableEntry lr = SensitivityTableCodec.parse(old, "old.json").find("lr").orElseThrow();
        assertEquals(SensitivityModel.of(5.6, -11.7, 7.1), lr.model());
        assertEquals(ModelFamily.POLY, lr.family());
        assertTrue(Double.isNaN(lr.fit().cvRmse()));
        assertEquals(null, lr.selection());
        assertEquals("t.json: workload 'x': field 'parameters.c' must be ≥ 0, got -1.0",
                error("{\"format\":\"saba-sensitivity-table\",\"version\":2,\"workloads\":{\"x\":"
                        + "{\"family\":\"inverse\",\"parameters\":{\"a\":1,\"c\":-1}}}}"));
        assertTrue(error("{\"format\":\"saba-sensitivity-table\",\"version\":2,\"workloads\":{\"x\":"
                + "{\"family\":\"spline\"}}}").startsWith("t.json: workload 'x': field 'family': unknown model family"));
    }
}
