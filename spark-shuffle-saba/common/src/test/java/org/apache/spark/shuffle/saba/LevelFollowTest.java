package org.apache.spark.shuffle.saba;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.controller.server.EmbeddedController;
import io.saba.process.PacketCapture;
import io.saba.wire.DscpMap;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a job's executors keep their tag equal to the application's level, with two real executors and a real
 * controller on loopback: they ask their driver once after each of its heartbeats (a running application's level
 * changes only then, or when the driver re-registers), not every {@code spark.saba.level.refresh}; and when the
 * level does change (the controller restarted, the application registered again alone and got another level), their
 * connections carry the new level's DSCP on the wire. Skips (saying why) without tcpdump/tshark or capture rights.
 */
@Timeout(600)
class LevelFollowTest {
    @TempDir
    Path dir;

    @Test
    void executorsAskOncePerDriverHeartbeatAndFollowANewLevelOnTheWire() throws Exception {
        LoopbackDscp.assumeCapture();
        int port = freePort();
        EmbeddedController controller = Fixtures.controllerOn(port);
        // another application holds the lowest level, so that this one's differs on the first controller and on a
        // second that only this one re-registers with (its client is closed first, so it never does)
        SabaClient other = SabaClient.connect(ClientConfig.defaults(controller.target()));
        try {
            SabaApplication competitor = other.register(new AppSpec("competitor", "wc", "spark", "u", 0));
            await("the competitor registered").atMost(Duration.ofSeconds(30))
                    .until(competitor::registered);
            try (JavaSparkContext jsc = new JavaSparkContext(
                    LocalCluster.withSaba(LocalCluster.conf("follow"), controller.target(), "lr"))) {
                List<Integer> ports = LoopbackDscp.ports(SecondApp.applicationPorts(jsc));
                SabaDriver driver = SabaDriver.current();
                await("registered").atMost(Duration.ofSeconds(30))
                        .until(() -> driver.application().registered());
                int before = driver.application().level();
                DscpMap map = DscpMap.classSelectors();
                assertEquals(97, LocalCluster.job(jsc, 60_000, 97).size()); // both executors up and connected

                // with refresh at 300 ms (LocalCluster) the old fixed beat asked 2 × 40 times in 12 s; the driver's
                // heartbeat is every 10 s (lease 30 s / 3)
                long asked = driver.levelQueries();
                Thread.sleep(12_000);
                asked = driver.levelQueries() - asked;
                System.out.println("level queries from 2 executors in 12 s: " + asked);
                assertTrue(asked >= 2, "each executor still asks at least once a heartbeat: " + asked);
                assertTrue(asked <= 8, "about once per executor and heartbeat, not every refresh: " + asked);

                List<PacketCapture.Segment> at = LoopbackDscp.capture(dir.resolve("before.pcap"),
                        () -> LocalCluster.job(jsc, 60_000, 97));
                LoopbackDscp.assertTagged("level " + before, "the application", at, ports, map.dscp(before));

                other.close();
                controller.close();
                controller = Fixtures.controllerOn(port);
                await("re-registered with the new controller").atMost(Duration.ofSeconds(60))
                        .until(() -> driver.application().registered() && driver.application().level() != before);
                int after = driver.application().level();
                assertNotEquals(map.dscp(before), map.dscp(after));
                // each executor's next question (right after the driver's heartbeat that brought the level, or
                // every refresh while the driver was cut off) gets the new level, and it re-tags at once
                await("both executors told the new level").atMost(Duration.ofSeconds(60))
                        .until(() -> driver.executorsBehind().isEmpty());
                List<PacketCapture.Segment> then = LoopbackDscp.capture(dir.resolve("after.pcap"),
                        () -> LocalCluster.job(jsc, 60_000, 97));
                LoopbackDscp.assertTagged("level " + after + " (was " + before + ")", "the application", then, ports,
                        map.dscp(after));
            }
        } finally {
            other.close();
            controller.close();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
