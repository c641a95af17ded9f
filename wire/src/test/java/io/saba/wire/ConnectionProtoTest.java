package io.saba.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.proto.v1.Connection;
import io.saba.proto.v1.Endpoint;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

class ConnectionProtoTest {
    private static Connection message(String src, int srcPort, String dst, int dstPort) {
        return Connection.newBuilder().setSrc(Endpoint.newBuilder().setIp(src).setPort(srcPort))
                .setDst(Endpoint.newBuilder().setIp(dst).setPort(dstPort)).build();
    }

    @Test
    void whatTheClientSendsIsWhatTheControllerReads() {
        ConnectionKey tcp = ConnectionKey.of(new InetSocketAddress("10.0.0.1", 40_000),
                new InetSocketAddress("10.0.0.2", 7337), null);
        assertEquals(Transport.TCP, tcp.transport(), "no transport given means TCP");
        assertEquals(tcp, ConnectionProto.fromProto(ConnectionProto.toProto(tcp)));
        ConnectionKey rdma = ConnectionKey.of(new InetSocketAddress("fd00::1", 1), new InetSocketAddress("fd00::2", 2),
                Transport.RDMA);
        assertEquals(rdma, ConnectionProto.fromProto(ConnectionProto.toProto(rdma)));
        assertEquals("RDMA [fd00:0:0:0:0:0:0:1]:1 -> [fd00:0:0:0:0:0:0:2]:2", rdma.toString());
    }

    @Test
    void readingNormalisesAddressesAndTakesAnUnsetTransportForTcp() {
        ConnectionKey k = ConnectionProto.fromProto(message("fd00:0:0:0:0:0:0:2", 5, "10.0.0.3", 6));
        assertEquals("fd00:0:0:0:0:0:0:2", k.srcIp());
        assertEquals(Transport.TCP, k.transport());
        assertEquals(ConnectionProto.fromProto(message("FD00::2", 5, "10.0.0.3", 6)).srcIp(), k.srcIp(),
                "one address, one spelling");
    }

    @Test
    void malformedConnectionsAreRefusedNamingTheField() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionProto.fromProto(message("db.example.com", 5, "10.0.0.3", 6)));
        assertTrue(e.getMessage().startsWith("src endpoint ip 'db.example.com' is not a literal IP"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionProto.fromProto(message("10.0.0.1", 5, "10.0.0.300", 6)));
        assertTrue(e.getMessage().contains("dst endpoint ip '10.0.0.300' is not a valid IPv4 address"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionProto.fromProto(message("10.0.0.1", 0, "10.0.0.3", 6)));
        assertTrue(e.getMessage().contains("src endpoint port 0 is outside 1..65535"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> ConnectionProto.fromProto(Connection.newBuilder().build()));
        assertTrue(e.getMessage().contains("needs both src and dst"), e.getMessage());
    }

    /**
     * Addresses already in canonical dotted-quad form skip the regex and InetAddress; the shortcut must give what
     * InetAddress gives, and take nothing else.
     */
    @Test
    void theCanonicalIpv4ShortcutAgreesWithInetAddress() throws Exception {
        java.util.Random r = new java.util.Random(19);
        for (int i = 0; i < 2_000; i++) {
            String s = r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(256) + "." + r.nextInt(256);
            assertTrue(ConnectionProto.isCanonicalIpv4(s), s);
            assertEquals(java.net.InetAddress.getByName(s).getHostAddress(), s);
        }
        for (String s : java.util.List.of("010.0.0.1", "10.00.0.1", "256.0.0.1", "1.2.3", "1.2.3.4.", "1..2.3",
                ".1.2.3", "1.2.3.4.5", "1.2.3.1000", "1.2.3.a", "fd00::1", "1.2.3.-4")) {
            assertTrue(!ConnectionProto.isCanonicalIpv4(s), s);
        }
        // a non-canonical spelling is still read, and normalised by the general path
        assertEquals(java.net.InetAddress.getByName("010.0.0.1").getHostAddress(),
                ConnectionProto.fromProto(message("010.0.0.1", 5, "10.0.0.3", 6)).srcIp());
    }
}
