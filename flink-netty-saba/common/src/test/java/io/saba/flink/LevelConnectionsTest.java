package io.saba.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LevelConnectionsTest {
    @Test
    void connectionCountIsAMultipleOfTheLevels() {
        assertEquals(8, LevelConnections.connectionCount(1, 8));
        assertEquals(8, LevelConnections.connectionCount(8, 8));
        assertEquals(16, LevelConnections.connectionCount(9, 8));
        assertEquals(8, LevelConnections.connectionCount(0, 8));
    }

    @Test
    void levelsNeverShareAConnection() {
        Random r = new Random(7);
        for (int connections : new int[] {8, 16, 64}) {
            for (int i = 0; i < 10_000; i++) {
                int original = r.nextInt(Integer.MAX_VALUE);
                int level = r.nextInt(8);
                int index = LevelConnections.index(original, level, 8);
                assertTrue(index >= 0);
                // Flink's client pool: index % connections; the level survives it
                assertEquals(level, LevelConnections.level(index % connections, 8));
                assertTrue(Math.abs((long) index - original) < 8, "stays near Flink's own choice");
            }
        }
        assertEquals(Integer.MAX_VALUE - 7 - 8 + 7, LevelConnections.index(Integer.MAX_VALUE, 7, 8) + 0);
    }
}
