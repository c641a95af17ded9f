package io.saba.bench.proof;

import io.saba.process.PacketCapture;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A capture on a switch port, then a check of the DSCP of every packet that carries data of an application's
 * connection (identified by sender address and its pinned local port).
 */
final class DscpCapture {
    private final PacketCapture capture;
    private List<PacketCapture.Segment> segments;

    private DscpCapture(PacketCapture capture) {
        this.capture = capture;
    }

    /** Starts capturing TCP toward the receiver on the switch's port to it; returns once the capture listens. */
    static DscpCapture start(TestbedSpec spec, int port, String receiverAddress, Path file) throws IOException {
        return new DscpCapture(PacketCapture.start(Testbed.inNode(spec, TestbedSpec.SWITCH, List.of()),
                spec.switchPortDevice(port), "tcp and dst host " + receiverAddress, file));
    }

    /** Stops the capture and reads it back. */
    void stop() throws IOException {
        segments = capture.stop();
    }

    /** Data packets of one connection and how many of them carried the expected DSCP. */
    record Check(long dataPackets, long withDscp, int otherDscp) {
        boolean allTagged() {
            return dataPackets > 0 && dataPackets == withDscp;
        }
    }

    /** Checks every data packet from {@code address:port} (after {@link #stop}) for {@code dscp}. */
    Check check(String address, int port, int dscp) {
        long data = 0;
        long ok = 0;
        int other = -1;
        for (PacketCapture.Segment s : segments) {
            if (!s.src().equals(address) || s.srcPort() != port || s.payload() == 0) {
                continue; // another sender, or a pure ACK/handshake without payload
            }
            data++;
            if (s.dscp() == dscp) {
                ok++;
            } else {
                other = s.dscp();
            }
        }
        return new Check(data, ok, other);
    }
}
