package io.saba.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DscpMapTest {
    @Test
    void defaultMapUsesClassSelectors() {
        DscpMap m = DscpMap.classSelectors();
        assertEquals(8, m.levels());
        assertEquals(0, m.dscp(0));
        assertEquals(40, m.dscp(5));
        assertEquals(40 << 2, m.tos(5));
        assertEquals(0, m.dscp(99), "levels beyond the table fall back to the default class");
    }

    @Test
    void parsesExplicitMap() {
        DscpMap m = DscpMap.parse("0:0, 1:10 ,2:18", "spark.saba.dscp-map");
        assertEquals(3, m.levels());
        assertEquals(18, m.dscp(2));
    }

    @Test
    void itsTextIsWhatParseReads() {
        assertEquals("0:0,1:10,2:18", DscpMap.parse("0:0, 1:10 ,2:18", "k").toString());
        assertEquals(DscpMap.classSelectors().toString(),
                DscpMap.parse(DscpMap.classSelectors().toString(), "k").toString());
        assertEquals("0:0,1:8,2:16,3:24,4:32,5:40,6:48,7:56", DscpMap.classSelectors().toString());
    }

    @Test
    void badMapsNameTheInputAndTheFault() {
        String key = "spark.saba.dscp-map";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DscpMap.parse("0:0,1:64", key))
                .getMessage().matches(key + ": DSCP 64 .*"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DscpMap.parse("0:0,2:8", key))
                .getMessage().contains("level 2 outside"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DscpMap.parse("0:8,1:8", key))
                .getMessage().contains("two levels"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DscpMap.parse("0=1", key))
                .getMessage().contains("not level:dscp"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DscpMap.parse("x:1", key))
                .getMessage().contains("'x' is not an integer"));
    }
}
