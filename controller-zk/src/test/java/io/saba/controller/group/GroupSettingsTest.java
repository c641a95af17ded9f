package io.saba.controller.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupSettingsTest {
    @Test
    void parsesTheUri() {
        GroupSettings s = GroupSettings.parse("zk://zk1:2181,zk2:2181/saba/prod?session-timeout-ms=4000&id=ctl-a");
        assertEquals("zk1:2181,zk2:2181", s.connect());
        assertEquals("saba/prod", s.namespace());
        assertEquals(Duration.ofSeconds(4), s.sessionTimeout());
        assertEquals("ctl-a", s.id());
        assertEquals(Duration.ofSeconds(10), GroupSettings.parse("zk://h:1/g").sessionTimeout());
    }

    @Test
    void badUrisAreNamed() {
        for (String bad : List.of("http://h:1/g", "zk://h:1", "zk://h:1/g?colour=red", "zk://h:1/g?id=a/b",
                "zk://h:1/g?session-timeout-ms=soon")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GroupSettings.parse(bad));
            assertTrue(e.getMessage().contains(bad.contains("id=a/b") ? "a/b" : bad), e.getMessage());
        }
    }
}
