package org.apache.spark.shuffle.saba;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** When a JVM asks for its application's level again ({@link JvmTagging#nextAskMillis}), by hand. */
class JvmTaggingTest {
    private static final long REFRESH = 1_000;

    @Test
    void justAfterTheDriversNextHeartbeat() {
        // heartbeat in 10 s: 10 s + 250 ms margin + this JVM's 100 ms of spread
        assertEquals(10_350, JvmTagging.nextAskMillis(new Messages.TosAnswer(32, 10_000), REFRESH, 100));
        assertEquals(1_850, JvmTagging.nextAskMillis(new Messages.TosAnswer(32, 1_500), REFRESH, 100));
    }

    @Test
    void neverSoonerThanRefresh() {
        // news possible now (outage, heartbeat under way, no answer yet): the old fixed beat
        assertEquals(REFRESH, JvmTagging.nextAskMillis(new Messages.TosAnswer(32, 0), REFRESH, 100));
        assertEquals(REFRESH, JvmTagging.nextAskMillis(new Messages.TosAnswer(32, 200), REFRESH, 100));
        assertEquals(REFRESH, JvmTagging.nextAskMillis(new Messages.TosAnswer(32, -5), REFRESH, 0));
        assertEquals(REFRESH, JvmTagging.nextAskMillis(null, REFRESH, 100), "the driver did not answer");
    }

    @Test
    void neverLaterThanTheCap() {
        assertEquals(JvmTagging.MAX_WAIT_MILLIS,
                JvmTagging.nextAskMillis(new Messages.TosAnswer(0, Long.MAX_VALUE), REFRESH, 249), "refused for good");
        assertEquals(JvmTagging.MAX_WAIT_MILLIS,
                JvmTagging.nextAskMillis(new Messages.TosAnswer(0, 100_000), REFRESH, 0), "a long lease");
        // a refresh above the cap is the operator's choice and wins
        assertEquals(60_000, JvmTagging.nextAskMillis(new Messages.TosAnswer(0, 100_000), 60_000, 0));
    }
}
