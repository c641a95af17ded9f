package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading Saba's queues' counters out of {@code tc -s class show} (iproute2 6.1's layout). */
class TcDeviceTest {
    @Test
    void theQueuesCountersAreReadAndTheLinksAndTheNonSabaClassLeftOut() {
        String stats = """
                class htb 1:1 root rate 20Mbit ceil 20Mbit burst 1600b cburst 1600b
                 Sent 403840225 bytes 393173 pkt (dropped 0, overlimits 43244 requeues 0)
                 backlog 0b 0p requeues 0
                 lended: 32989 borrowed: 0 giants: 0
                 tokens: 9293 ctokens: 9293

                class htb 1:10 parent 1:1 leaf 10: prio 0 rate 2Mbit ceil 20Mbit burst 1600b cburst 1600b
                 Sent 206363855 bytes 196228 pkt (dropped 807, overlimits 64709 requeues 0)
                 backlog 0b 0p requeues 0

                class htb 1:21 parent 1:1 leaf 21: prio 0 rate 1Mbit ceil 20Mbit burst 1600b cburst 1600b
                 Sent 1042 bytes 1 pkt (dropped 0, overlimits 0 requeues 0)
                 backlog 0b 0p requeues 0

                class htb 1:2a parent 1:1 leaf 2a: prio 0 rate 17Mbit ceil 20Mbit burst 1600b cburst 1600b
                 Sent 98765432101 bytes 7 pkt (dropped 0, overlimits 0 requeues 0)
                 backlog 0b 0p requeues 0
                """;
        assertEquals(Map.of(1, 1_042L, 10, 98_765_432_101L), TcDevice.queueBytes(stats));
        assertEquals(Map.of(), TcDevice.queueBytes(""), "no HTB on the device");
    }
}
