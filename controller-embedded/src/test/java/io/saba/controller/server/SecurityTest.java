package io.saba.controller.server;

import static org.awaitility.Awaitility.await;
import static io.saba.controller.server.ControllerGrpcTest.expect;
import static io.saba.controller.server.Fixtures.conn;
import static io.saba.controller.server.Fixtures.event;
import static io.saba.controller.server.Fixtures.register;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.DeregisterRequest;
import io.saba.proto.v1.HeartbeatRequest;
import io.saba.proto.v1.ReloadTableRequest;
import io.saba.proto.v1.StatusRequest;
import io.saba.proto.v1.SyncRequest;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Token authentication between tenants, and TLS with a certificate made in the test. */
class SecurityTest {
    @Test
    void aTenantCannotTouchAnotherTenantsApplication() throws Exception {
        try (EmbeddedController c = Fixtures.builder()
                .tokens(Map.of("alice", "token-a", "bob", "token-b", "ops", "token-ops"))
                .adminTenants(Set.of("ops")).build()) {
            c.start();
            ManagedChannel ch = Fixtures.channel(c);
            try {
                ControllerGrpc.ControllerBlockingStub alice = Fixtures.stub(ch, "token-a");
                ControllerGrpc.ControllerBlockingStub bob = Fixtures.stub(ch, "token-b");
                alice.register(register("spark-1", "lr"));
                alice.connectionOpened(event("spark-1", conn(1, 1, 2, 2), 0));
                var before = alice.status(StatusRequest.newBuilder().setIncludeConnections(true).build());

                String denied = "application spark-1 belongs to another tenant";
                expect(Status.Code.PERMISSION_DENIED, denied,
                        () -> bob.deregister(DeregisterRequest.newBuilder().setAppId("spark-1").build()));
                expect(Status.Code.PERMISSION_DENIED, denied, () -> bob.register(register("spark-1", "wc")));
                expect(Status.Code.PERMISSION_DENIED, denied,
                        () -> bob.connectionClosed(event("spark-1", conn(1, 1, 2, 2), 0)));
                expect(Status.Code.PERMISSION_DENIED, denied,
                        () -> bob.connectionOpened(event("spark-1", conn(3, 1, 2, 2), 0)));
                expect(Status.Code.PERMISSION_DENIED, denied,
                        () -> bob.syncConnections(SyncRequest.newBuilder().setAppId("spark-1").build()));
                expect(Status.Code.PERMISSION_DENIED, denied,
                        () -> bob.heartbeat(HeartbeatRequest.newBuilder().setAppId("spark-1").build()));
                expect(Status.Code.PERMISSION_DENIED, "tenant bob may not reload the sensitivity table",
                        () -> bob.reloadTable(ReloadTableRequest.newBuilder().setTableJson("{}").build()));
                expect(Status.Code.UNAUTHENTICATED, "the bearer token matches no tenant",
                        () -> Fixtures.stub(ch, "token-x").deregister(
                                DeregisterRequest.newBuilder().setAppId("spark-1").build()));
                expect(Status.Code.UNAUTHENTICATED, "missing 'authorization: Bearer <token>' header",
                        () -> Fixtures.stub(ch).deregister(DeregisterRequest.newBuilder().setAppId("spark-1").build()));

                var after = alice.status(StatusRequest.newBuilder().setIncludeConnections(true).build());
                assertEquals(before.getAppsCount(), after.getAppsCount());
                assertEquals("alice", after.getApps(0).getTenant());
                assertEquals("lr", after.getApps(0).getWorkload(), "bob's re-register changed nothing");
                assertEquals(before.getApps(0).getOpenList(), after.getApps(0).getOpenList());
                // the owner can, and a tenant's own apps are its own business
                bob.register(register("flink-1", "wc"));
                assertTrue(alice.deregister(DeregisterRequest.newBuilder().setAppId("spark-1").build())
                        .getWasRegistered());
            } finally {
                ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void tlsWithASelfSignedCertificate(@TempDir Path dir) throws Exception {
        Path[] pem = SelfSigned.in(dir);
        try (EmbeddedController c = Fixtures.builder().tls(pem[0], pem[1]).tokens(Map.of("t", "tok")).build()) {
            c.start();
            try (SabaClient client = SabaClient.connect(
                    ClientConfig.defaults(c.target()).withTls(pem[0]).withToken("tok"))) {
                SabaApplication app = client.register(new AppSpec("secure", "lr", "spark", "u", 0));
                // on a loaded machine the first call may miss its deadline; the client retries: wait for the level
                await("a level over the client").atMost(Fixtures.PATIENCE).until(() -> app.level() >= 1);
            }
            ManagedChannel plain = Fixtures.channel(c);
            try {
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                        () -> Fixtures.stub(plain, "tok").status(StatusRequest.getDefaultInstance()));
                assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), "plaintext cannot talk to TLS");
            } finally {
                plain.shutdownNow();
            }
            ManagedChannel tls = Grpc.newChannelBuilder(c.target(),
                    TlsChannelCredentials.newBuilder().trustManager(pem[0].toFile()).build()).build();
            try {
                assertEquals(1, Fixtures.stub(tls, "tok").status(StatusRequest.getDefaultInstance()).getAppsCount());
            } finally {
                tls.shutdownNow();
            }
        }
    }
}
