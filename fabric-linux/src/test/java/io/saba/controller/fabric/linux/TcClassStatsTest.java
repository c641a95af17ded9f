package io.saba.controller.fabric.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.process.ProcessRunner;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Counters read through a long-lived tc against the real kernel: a veth in a private namespace whose HTB sends
 * TOS 0x40 to Saba's first queue class (1:20), and pings at that TOS to a neighbour that never answers, so what
 * leaves the device is what the class counts.
 */
class TcClassStatsTest {
    private static final String NS = "saba-jt-stats";
    private static final LinuxPort DEV = new LinuxPort(NS, "x", 100_000_000L);
    /** 1,000 bytes of ping payload and 42 of ICMP, IPv4 and Ethernet headers. */
    private static final long PING_BYTES = 1_042;

    private final ProcessRunner sh = new ProcessRunner();

    @BeforeEach
    void namespace() {
        RootAssumptions.assumeNetnsRoot("tc", "ping", "pgrep");
        sh.run(List.of("ip", "netns", "del", NS)); // a leftover from a killed run
        sh.check("ip", "netns", "add", NS);
        sh.check("ip", "-n", NS, "link", "add", "x", "type", "veth", "peer", "name", "y");
        sh.check("ip", "-n", NS, "link", "set", "x", "up");
        sh.check("ip", "-n", NS, "link", "set", "y", "up");
        sh.check("ip", "-n", NS, "addr", "add", "10.254.1.1/24", "dev", "x");
        sh.check("ip", "-n", NS, "neigh", "add", "10.254.1.2", "lladdr", "02:00:00:00:00:02", "dev", "x", "nud",
                "permanent");
        // untagged traffic (the kernel's own IPv6 neighbour discovery) to 1:10, the pings' TOS 0x40 to 1:20
        sh.check(DEV.tc("qdisc", "add", "dev", "x", "root", "handle", "1:", "htb", "default", "10"));
        sh.check(DEV.tc("class", "add", "dev", "x", "parent", "1:", "classid", "1:1", "htb", "rate", "100mbit"));
        sh.check(DEV.tc("class", "add", "dev", "x", "parent", "1:1", "classid", "1:10", "htb", "rate", "100mbit"));
        sh.check(DEV.tc("class", "add", "dev", "x", "parent", "1:1", "classid", "1:20", "htb", "rate", "100mbit"));
        sh.check(DEV.tc("filter", "add", "dev", "x", "parent", "1:", "protocol", "ip", "prio", "1", "u32", "match",
                "ip", "tos", "0x40", "0xfc", "flowid", "1:20"));
    }

    @AfterEach
    void removeNamespace() {
        sh.run(List.of("ip", "netns", "del", NS));
    }

    private void ping(int count) {
        sh.run(List.of("ip", "netns", "exec", NS, "ping", "-n", "-q", "-c", String.valueOf(count), "-i", "0.01", "-s",
                "1000", "-Q", "0x40", "-W", "0.05", "10.254.1.2")); // no answer ever comes: exit status 1
    }

    /** The tc processes reading this namespace's counters. */
    private int tcProcesses() {
        String out = sh.run(List.of("pgrep", "-fc", "^tc -s -n " + NS + " -force -batch")).stdout().strip();
        return Integer.parseInt(out);
    }

    private void awaitTcProcesses(int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (tcProcesses() != n && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertEquals(n, tcProcesses());
    }

    @Test
    void readsWhatAOneShotTcReadsThroughOneProcess() throws InterruptedException {
        try (TcClassStats stats = new TcClassStats()) {
            assertEquals(Map.of(0, 0L), TcDevice.queueBytes(stats.show(DEV)), "a new class starts at 0");
            ping(10);
            String oneShot = sh.check(DEV.tc("-s", "class", "show", "dev", "x"));
            assertEquals(TcDevice.queueBytes(oneShot), TcDevice.queueBytes(stats.show(DEV)));
            assertEquals(Map.of(0, 10 * PING_BYTES), TcDevice.queueBytes(stats.show(DEV)));
            for (int i = 1; i <= 10; i++) {
                ping(1);
                assertEquals(Map.of(0, (10 + i) * PING_BYTES), TcDevice.queueBytes(stats.show(DEV)), "reading " + i);
            }
            assertEquals(1, stats.sessions());
            assertEquals(1, tcProcesses(), "one tc for 13 readings");
        }
        awaitTcProcesses(0);
    }

    @Test
    void aMissingDeviceReadsAsNoClassesAndTheSessionGoesOn() {
        try (TcClassStats stats = new TcClassStats()) {
            assertEquals(Map.of(), TcDevice.queueBytes(stats.show(new LinuxPort(NS, "nosuch", 1_000_000L))));
            ping(3);
            assertEquals(Map.of(0, 3 * PING_BYTES), TcDevice.queueBytes(stats.show(DEV)));
            assertEquals(1, tcProcesses());
        }
    }

    @Test
    void aTcThatDiedIsStartedAgainAtTheNextReading() {
        try (TcClassStats stats = new TcClassStats()) {
            stats.show(DEV);
            sh.check("pkill", "-KILL", "-f", "^tc -s -n " + NS + " -force -batch");
            ping(2);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> stats.show(DEV));
            assertTrue(e.getMessage().contains(NS), e.getMessage());
            assertEquals(0, stats.sessions());
            assertEquals(Map.of(0, 2 * PING_BYTES), TcDevice.queueBytes(stats.show(DEV)));
            assertEquals(1, tcProcesses());
        }
    }

    @Test
    void aDeletedNamespaceEndsItsSessionSoTheKernelCanFreeIt() throws InterruptedException {
        try (TcClassStats stats = new TcClassStats()) {
            stats.show(DEV);
            sh.check("ip", "netns", "del", NS);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> stats.show(DEV));
            assertTrue(e.getMessage().contains("no namespace " + NS), e.getMessage());
            awaitTcProcesses(0);
            // a namespace of the same name made again is read afresh, not through the old one's tc
            namespace();
            ping(4);
            assertEquals(Map.of(0, 4 * PING_BYTES), TcDevice.queueBytes(stats.show(DEV)));
        }
    }

    @Test
    void aTcThatNeverAnswersIsKilledAndTheReadingFails() {
        // a stand-in that reads nothing and never prints: the reading must give up, not hold the lock for ever
        try (TcClassStats stats = new TcClassStats(TcClassStats.IDLE, Duration.ofMillis(300),
                List.of("sh", "-c", "exec sleep 60", "tc"))) {
            long start = System.nanoTime();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> stats.show(DEV));
            assertTrue(e.getMessage().contains("tc ended"), e.getMessage());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos(), "gave up after the reply time");
            assertEquals(0, stats.sessions());
        }
    }

    @Test
    void anIdleSessionEnds() throws InterruptedException {
        try (TcClassStats stats = new TcClassStats(Duration.ofMillis(300), TcClassStats.REPLY, List.of("tc"))) {
            stats.show(DEV);
            assertEquals(1, tcProcesses());
            awaitTcProcesses(0);
            assertEquals(0, stats.sessions());
            ping(1);
            assertEquals(Map.of(0, PING_BYTES), TcDevice.queueBytes(stats.show(DEV)));
        }
    }
}
