package io.saba.harness.realspark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {
    private static final List<Integer> WORKERS = List.of(2, 3, 4, 5);

    @Test
    void aResourceNamesAHostSet() {
        assertEquals("h2h4", Placement.resourceName(List.of(4, 2)));
        assertEquals("h3", Placement.resourceName(List.of(3)));
    }

    @Test
    void eachWorkerOffersEverySetItBelongsTo() throws Exception {
        Map<String, String> p = Placement.workerProperties(3, WORKERS, 4, "/x/res.json");
        assertEquals("/x/res.json", p.get("spark.worker.resourcesFile"));
        List<String> names = new ArrayList<>();
        p.forEach((k, v) -> {
            if (k.startsWith("spark.worker.resource.")) {
                assertEquals("4", v);
                names.add(k.substring("spark.worker.resource.".length(), k.length() - ".amount".length()));
            }
        });
        assertEquals(8, names.size(), "2^(4-1) sets contain h3");
        assertTrue(names.containsAll(List.of("h3", "h2h3", "h3h5", "h2h3h4h5")), names.toString());
        assertTrue(names.stream().allMatch(n -> n.contains("h3")), names.toString());

        JsonNode json = new ObjectMapper().readTree(Placement.resourcesJson(3, WORKERS, 4));
        assertEquals(8, json.size());
        for (JsonNode a : json) {
            assertEquals("spark.worker", a.path("id").path("componentName").asText());
            assertTrue(names.contains(a.path("id").path("resourceName").asText()));
            assertEquals(List.of("0", "1", "2", "3"),
                    List.of(a.path("addresses").get(0).asText(), a.path("addresses").get(1).asText(),
                            a.path("addresses").get(2).asText(), a.path("addresses").get(3).asText()));
        }
    }

    @Test
    void aResourceNameNeedingEscapingRoundTrips() throws Exception {
        String name = "a \"quoted\": name\nover two lines\\";
        JsonNode json = new ObjectMapper().readTree(Placement.resourcesJson(List.of(name, "h2"), 2));
        assertEquals(2, json.size());
        assertEquals(name, json.get(0).path("id").path("resourceName").asText());
        assertEquals("h2", json.get(1).path("id").path("resourceName").asText());
        assertEquals(List.of("0", "1"),
                List.of(json.get(0).path("addresses").get(0).asText(), json.get(0).path("addresses").get(1).asText()));
        assertEquals(2, json.get(0).path("addresses").size());
    }

    @Test
    void aJobAsksForOneCorePerHostAndItsSet() {
        Map<String, String> c = Placement.jobConf(new SetupJob("s0-j1", "sort", 1, List.of(5, 2)));
        assertEquals(Map.of("spark.executor.cores", "1", "spark.cores.max", "2",
                "spark.executor.resource.h2h5.amount", "1"), c);
    }
}
