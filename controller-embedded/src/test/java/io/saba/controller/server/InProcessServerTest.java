package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.saba.controller.Metrics;
import io.saba.controller.Tenants;
import io.saba.controller.SabaController;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.grpc.AuthInterceptor;
import io.saba.controller.grpc.ControllerServer;
import io.saba.controller.grpc.ControllerService;
import io.saba.controller.grpc.GrpcHealth;
import io.saba.controller.log.LocalLog;
import io.saba.core.alloc.Allocator;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.StatusRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The server takes its ServerBuilder from outside, so the real service runs in-process here (no socket), and it
 * serves the standard health service next to the controller's.
 */
class InProcessServerTest {
    private static HealthGrpc.HealthBlockingStub health(ManagedChannel ch) {
        return HealthGrpc.newBlockingStub(ch).withDeadlineAfter(10, TimeUnit.SECONDS);
    }

    @Test
    void theControllerAndItsHealthServeInProcess() {
        String name = InProcessServerBuilder.generateName();
        Tenants tenants = new Tenants(Map.of("team", "secret"), Set.of());
        try (SabaController controller = new SabaController(Fixtures.singleSwitch(8), new Allocator(
                new MinSlowdownSolver(), 8, 0.9), Fixtures.catalog(), new DryRunBackend(false, 100),
                new LocalLog(null), Duration.ofSeconds(30), new Metrics(), Duration.ofMillis(5)).start();
             ControllerServer server = new ControllerServer(InProcessServerBuilder.forName(name),
                     new ControllerService(controller, tenants, () -> "{}"),
                     new AuthInterceptor(tenants, () -> { }), 0, new GrpcHealth()).start()) {
            server.open(); // what EmbeddedController does once the controller behind is started
            ManagedChannel ch = InProcessChannelBuilder.forName(name).directExecutor().build();
            try {
                // health answers without a token; the controller's own service does not
                assertEquals(ServingStatus.SERVING, health(ch).check(HealthCheckRequest.getDefaultInstance())
                        .getStatus());
                assertEquals(ServingStatus.SERVING, health(ch).check(HealthCheckRequest.newBuilder()
                        .setService(ControllerGrpc.SERVICE_NAME).build()).getStatus());
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> health(ch).check(
                        HealthCheckRequest.newBuilder().setService("no.such.Service").build()));
                assertEquals(Status.Code.NOT_FOUND, e.getStatus().getCode());
                e = assertThrows(StatusRuntimeException.class, () -> ControllerGrpc.newBlockingStub(ch)
                        .status(StatusRequest.getDefaultInstance()));
                assertEquals(Status.Code.UNAUTHENTICATED, e.getStatus().getCode());
                assertTrue(Fixtures.stub(ch, "secret").register(Fixtures.register("a", "lr")).getLevel() > 0,
                        "a registration through the in-process transport gets a level");
                assertEquals(1, controller.appCount());
            } finally {
                ch.shutdownNow();
            }
        }
    }

    @Test
    void theStandaloneControllerServesHealthOnItsSocket() throws Exception {
        try (EmbeddedController c = Fixtures.builder().healthService(true).build()) {
            c.start();
            ManagedChannel ch = NettyChannelBuilder.forTarget(c.target()).usePlaintext().build();
            try {
                assertEquals(ServingStatus.SERVING, health(ch).check(HealthCheckRequest.getDefaultInstance())
                        .getStatus());
            } finally {
                ch.shutdownNow();
            }
        }
        try (EmbeddedController c = Fixtures.builder().build()) {
            c.start();
            ManagedChannel ch = NettyChannelBuilder.forTarget(c.target()).usePlaintext().build();
            try {
                StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                        () -> health(ch).check(HealthCheckRequest.getDefaultInstance()));
                assertTrue(e.getStatus().getCode() == Status.Code.UNIMPLEMENTED, e.getStatus().toString());
            } finally {
                ch.shutdownNow();
            }
        }
    }
}
