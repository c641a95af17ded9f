package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SparkMasterLogTest {
    // lines as Spark 3.5.3's standalone master logs them: a campaign run, and the profile of 2026-12-01 whose first
    // sort run got both executors on h3 while h2 registered again
    private static final String LOG = """
            05:56:39.649 INFO Master: Registered app s0-j2-baseline-wordcount with ID app-20261124055639-0000
            05:56:39.700 INFO Master: Launching executor app-20261124055639-0000/0 on worker worker-20261124055617-10.94.0.2-42773
            05:56:39.877 INFO Master: Registered app s0-j1-baseline-nutchindexing with ID app-20261124055639-0001
            05:56:39.888 INFO Master: Launching executor app-20261124055639-0001/0 on worker worker-20261124055617-10.94.0.3-46521
            05:56:39.896 INFO Master: Launching executor app-20261124055639-0001/1 on worker worker-20261124055617-10.94.0.2-42773
            05:56:41.612 INFO Master: Registered app s0-j0-baseline-pagerank with ID app-20261124055641-0002
            """;
    private static final String FRESH = """
            21:58:01.131 INFO Master: Registering worker 10.85.0.2:35185 with 2 cores, 2.0 GiB RAM
            21:58:01.166 INFO Master: Registering worker 10.85.0.3:37735 with 2 cores, 2.0 GiB RAM
            21:58:04.465 INFO Master: Registered app saba-sort with ID app-20261201215804-0000
            21:58:04.500 INFO Master: Launching executor app-20261201215804-0000/0 on worker worker-20261201215800-10.85.0.3-37735
            21:58:04.522 INFO Master: Launching executor app-20261201215804-0000/1 on worker worker-20261201215800-10.85.0.3-37735
            21:58:06.347 INFO Master: Registering worker 10.85.0.2:35185 with 2 cores, 2.0 GiB RAM
            """;

    @Test
    void executorHostsAreReadFromTheMastersLog() {
        Map<String, List<String>> where = SparkMasterLog.executorHosts(LOG);
        assertEquals(List.of("10.94.0.2"), where.get("s0-j2-baseline-wordcount"));
        assertEquals(List.of("10.94.0.3", "10.94.0.2"), where.get("s0-j1-baseline-nutchindexing"));
        assertEquals(List.of(), where.get("s0-j0-baseline-pagerank"), "registered, no executor yet");
    }

    @Test
    void twoExecutorsOnOneOfSeveralWorkersAreARunWhoseShuffleStayedOnTheHost() {
        assertEquals("its 2 executors all ran on 10.85.0.3 of 2 workers, so its shuffle never crossed a link",
                SparkMasterLog.allOnOneWorker(FRESH, "saba-sort"));
        String next = FRESH + """
                21:58:17.771 INFO Master: Registered app saba-sort with ID app-20261201215817-0001
                21:58:17.775 INFO Master: Launching executor app-20261201215817-0001/0 on worker worker-20261201215800-10.85.0.3-37735
                21:58:17.780 INFO Master: Launching executor app-20261201215817-0001/1 on worker worker-20261201215800-10.85.0.2-35185
                """;
        assertNull(SparkMasterLog.allOnOneWorker(next, "saba-sort"), "the last run of the name counts: spread");
        String oneWorker = FRESH.lines().filter(l -> !l.contains("10.85.0.2:")).reduce("", (a, b) -> a + b + "\n");
        assertNull(SparkMasterLog.allOnOneWorker(oneWorker, "saba-sort"), "one worker: nowhere else to go");
        assertNull(SparkMasterLog.allOnOneWorker(LOG, "s0-j2-baseline-wordcount"), "a single executor");
        assertNull(SparkMasterLog.allOnOneWorker(FRESH, "saba-lr"), "not in the log");
    }
}
