package io.saba.controller.server;


import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.core.table.ModelCatalog;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.model.SensitivityModel;
import io.saba.core.topology.Topologies;
import io.saba.proto.v1.Connection;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.Endpoint;
import io.saba.proto.v1.RegisterRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Shared test setup: a real controller on loopback over an 8-host single switch, hosts h1..h8 = 10.0.0.1..8. */
final class Fixtures {
    private Fixtures() {
    }

    /** Five workloads with distinct, hand-written models (fewer than the 7 Saba levels of Ethernet). */
    static ModelCatalog catalog() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        m.put("lr", SensitivityModel.of(5, -8, 4));
        m.put("pr", SensitivityModel.of(3, -4, 2));
        m.put("svm", SensitivityModel.of(2, -1.5, 0.5));
        m.put("wc", SensitivityModel.of(1.2, -0.2));
        m.put("sort", SensitivityModel.of(1.5, -0.5));
        return new ModelCatalog(m);
    }

    static TopologyResolver singleSwitch(int hosts) {
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        for (int i = 1; i <= hosts; i++) {
            addresses.put("h" + i, List.of("10.0.0." + i));
        }
        return new TopologyResolver(Topologies.singleSwitch(hosts, 10, 8), addresses);
    }

    static EmbeddedController.Builder builder() {
        return EmbeddedController.builder().topology(singleSwitch(8)).table(catalog())
                .backend(new DryRunBackend(false, 100_000), true).leaseTimeout(Duration.ofSeconds(30));
    }

    static ManagedChannel channel(EmbeddedController c) {
        return NettyChannelBuilder.forTarget(c.target()).usePlaintext().build();
    }

    /**
     * A stub whose every call gets 10 s (a stub's own withDeadlineAfter counts from the stub's creation, so a stub
     * kept by a test for longer than that, as a lease test waiting for an expiry on a loaded machine, failed).
     */
    static ControllerGrpc.ControllerBlockingStub stub(ManagedChannel ch) {
        return ControllerGrpc.newBlockingStub(ch).withInterceptors(new io.grpc.ClientInterceptor() {
            @Override
            public <Q, R> io.grpc.ClientCall<Q, R> interceptCall(io.grpc.MethodDescriptor<Q, R> method,
                                                                  io.grpc.CallOptions options, io.grpc.Channel next) {
                return next.newCall(method, options.withDeadlineAfter(10, TimeUnit.SECONDS));
            }
        });
    }

    static ControllerGrpc.ControllerBlockingStub stub(ManagedChannel ch, String token) {
        Metadata md = new Metadata();
        md.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
        return stub(ch).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    }

    static RegisterRequest register(String app, String workload) {
        return RegisterRequest.newBuilder().setAppId(app).setWorkload(workload).setFramework("test")
                .setUser("u").setAttempt(0).build();
    }

    static Connection conn(int srcHost, int srcPort, int dstHost, int dstPort) {
        return Connection.newBuilder()
                .setSrc(Endpoint.newBuilder().setIp("10.0.0." + srcHost).setPort(srcPort))
                .setDst(Endpoint.newBuilder().setIp("10.0.0." + dstHost).setPort(dstPort))
                .setTransport(io.saba.proto.v1.Transport.TCP).build();
    }

    static ConnectionEvent event(String app, Connection c, long seq) {
        return ConnectionEvent.newBuilder().setAppId(app).setConnection(c).setSeq(seq).build();
    }

    static List<String> ids(List<io.saba.proto.v1.AppStatus> apps) {
        List<String> out = new ArrayList<>();
        apps.forEach(a -> out.add(a.getAppId()));
        return out;
    }

    static void quiesce(EmbeddedController c) throws InterruptedException {
        if (!c.controller().recomputer().awaitQuiescent(Duration.ofSeconds(30))) {
            throw new AssertionError("recomputation did not settle");
        }
    }

    /** How long a test waits for the controller to get somewhere (await(...).atMost). */
    static final java.time.Duration PATIENCE = java.time.Duration.ofSeconds(30);
}
