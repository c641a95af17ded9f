package io.saba.controller.grpc;

import io.grpc.BindableService;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.saba.proto.v1.ControllerGrpc;

/**
 * The standard gRPC health service ({@code grpc.health.v1.Health}, grpc-java's {@link HealthStatusManager}) for a
 * controller's server: SERVING, for the server ("") and for {@code saba.v1.Controller}, once it listens; NOT_SERVING
 * from the moment it starts shutting down. It answers without a token, so load balancers and probes can ask.
 *
 * <p>Needs {@code io.grpc:grpc-services}, which the standalone controller carries; the Spark and Flink plugins'
 * in-process controllers (nobody probes them) do not, and never load this class.
 */
public final class GrpcHealth {
    private final HealthStatusManager manager = new HealthStatusManager();

    BindableService service() {
        return manager.getHealthService();
    }

    void serving() {
        manager.setStatus(HealthStatusManager.SERVICE_NAME_ALL_SERVICES, ServingStatus.SERVING);
        manager.setStatus(ControllerGrpc.SERVICE_NAME, ServingStatus.SERVING);
    }

    void stopping() {
        manager.enterTerminalState();
    }
}
