package io.saba.core.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkloadNamesTest {
    @Test
    void aliasesBecomeTableKeysAndOtherNamesOnlyTheirKey() {
        assertEquals("wordcount", WorkloadNames.canonical(" WC "));
        assertEquals("nutchindexing", WorkloadNames.canonical("inverted-index"));
        assertEquals("sort", WorkloadNames.canonical("TeraSort"));
        assertEquals("sql", WorkloadNames.canonical("join"));
        assertEquals("my-etl", WorkloadNames.canonical("My-ETL"), "a workload of the operator's own");
        for (String w : WorkloadNames.PAPER) {
            assertEquals(w, WorkloadNames.canonical(w), "a key is its own canonical name");
            assertEquals(SensitivityTable.key(w), w);
        }
    }

    @Test
    void hibenchTypesNameThePapersWorkloadsOrAreRefused() {
        assertEquals("sort", WorkloadNames.ofHibenchType("ScalaSparkTerasort"));
        assertEquals("lr", WorkloadNames.ofHibenchType("ScalaSparkLogisticRegression"));
        assertEquals("wordcount", WorkloadNames.ofHibenchType("SabaSparkWordcount"));
        assertEquals("gbt", WorkloadNames.ofHibenchType("ScalaSparkGradientBoostingTree"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> WorkloadNames.ofHibenchType("ScalaSparkKmeans"));
        assertTrue(e.getMessage().contains("none of the paper's ten workloads"), e.getMessage());
    }
}
