package io.saba.bench.proof;

import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.wire.DscpMap;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.process.CommandRunner;
import io.saba.core.table.ModelCatalog;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedPorts;
import io.saba.controller.fabric.linux.LinuxPortResolver;
import io.saba.testbed.TestbedSpec;
import io.saba.bench.proof.ProofApp.Tagging;
import io.saba.controller.topology.TopologyLoader;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The whole loop on the testbed: a real controller (in-process, gRPC on loopback) with the Linux backend, the
 * applications registering through the client library and reporting their connections by their testbed
 * addresses; the controller resolves the paths in the testbed's topology file, solves Eq. 2 per port and pushes
 * the switch port's HTB tree; the senders then use the TOS the controller assigned. Deregistering returns the
 * ports to the plain link.
 */
final class ControllerDrivenPhase {
    private final TestbedSpec spec;
    private final CommandRunner shell;
    private final DscpMap dscpMap;
    private final NftRetagger nft;

    /** Re-points a host's nftables tagging to a new DSCP (the controller may pick another level than the proof). */
    interface NftRetagger {
        void retag(ProofApp app, int dscp);
    }

    ControllerDrivenPhase(TestbedSpec spec, CommandRunner shell, DscpMap dscpMap, NftRetagger nft) {
        this.spec = spec;
        this.shell = shell;
        this.dscpMap = dscpMap;
        this.nft = nft;
    }

    /** Runs the phase; the measurement itself is delegated to {@code measure}. */
    void run(ProofReport report, List<ProofApp> apps, Measure measure) throws IOException, InterruptedException {
        PortId port = new PortId(TestbedSpec.SWITCH, Flows.RECEIVER);
        Map<String, SensitivityModel> models = new LinkedHashMap<>();
        apps.forEach(a -> models.put(a.name(), a.model()));
        LinuxTcBackend backend = new LinuxTcBackend(LinuxPortResolver.of(new TestbedPorts().ports(spec)), dscpMap, 1.0,
                shell, true, TestbedProof.BUFFER_SECONDS);
        try (EmbeddedController controller = EmbeddedController.builder()
                .listen(new InetSocketAddress("127.0.0.1", 0))
                .topology(TopologyLoader.load(TestbedSpec.stateDir(spec.name()).resolve("topology.yaml")))
                .table(new ModelCatalog(models)).cSaba(1.0).backend(backend, true)
                .leaseTimeout(Duration.ofSeconds(6)).build()) {
            controller.start();
            try (SabaClient client = SabaClient.connect(ClientConfig.defaults(controller.target()))) {
                Map<ProofApp, SabaApplication> registered = new LinkedHashMap<>();
                for (ProofApp a : apps) {
                    SabaApplication sa = client.register(new AppSpec(a.name(), a.name(), "testbed-proof", "root", 0));
                    registered.put(a, sa);
                    sa.assigned().get(10, TimeUnit.SECONDS);
                    sa.connectionOpened(new InetSocketAddress(spec.address(a.host()), a.clientPort()),
                            new InetSocketAddress(spec.address(Flows.RECEIVER), a.serverPort()), Transport.TCP);
                }
                PortAllocation firstPush = await(() -> Optional.ofNullable(
                        controller.controller().status(false).ports().get(port))
                        .filter(p -> p.appWeights().size() == apps.size())
                        .filter(p -> backend.installedPlan(port).isPresent()));
                report.check(firstPush != null, "controller pushed " + port + " with all " + apps.size()
                        + " applications to the Linux backend");
                if (firstPush == null) {
                    return;
                }
                // Levels can change as later applications register (re-clustering); an application learns its new
                // level on its next heartbeat (lease / 3, 2 s here). Wait until every sender knows its level.
                Map<String, Integer> controllerLevels = new LinkedHashMap<>();
                Boolean synced = await(() -> {
                    controllerLevels.clear();
                    controller.controller().status(false).apps()
                            .forEach(v -> controllerLevels.put(v.appId(), v.level()));
                    boolean same = registered.entrySet().stream().allMatch(
                            e -> Integer.valueOf(e.getValue().level()).equals(controllerLevels.get(e.getKey().name())));
                    return same ? Optional.of(true) : Optional.empty();
                });
                report.check(synced != null, "every application learned its level from the controller "
                        + controllerLevels);
                PortAllocation pushed = controller.controller().status(false).ports().get(port);
                HtbPlan plan = backend.installedPlan(port).orElseThrow();
                report.note("controller → " + port + ": levels→queues " + pushed.queueOfLevel() + ", app weights "
                        + pushed.appWeights() + "; installed " + plan.queueOfDscp() + " (DSCP→queue)");
                Map<ProofApp, Integer> tos = new LinkedHashMap<>();
                Map<ProofApp, Double> weights = new LinkedHashMap<>();
                Map<ProofApp, ProofApp> relevelled = new LinkedHashMap<>();
                for (ProofApp a : apps) {
                    SabaApplication sa = registered.get(a);
                    ProofApp at = new ProofApp(a.name(), a.host(), sa.level(), a.tagging(), a.model(), a.slot());
                    relevelled.put(a, at);
                    weights.put(at, pushed.appWeights().get(a.name()));
                    if (a.tagging() == Tagging.SOCKET) {
                        tos.put(at, sa.tos());
                    } else {
                        nft.retag(at, dscpMap.dscp(sa.level()));
                    }
                }
                measure.run(report, "controller-driven", List.copyOf(relevelled.values()), tos, weights);
                registered.values().forEach(SabaApplication::deregister);
                PortAllocation gone = await(() -> controller.controller().status(false).ports().containsKey(port)
                        || backend.installedPlan(port).isPresent() ? Optional.empty() : Optional.of(pushed));
                report.check(gone != null, "deregistering released " + port + " (controller and backend)");
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                report.check(false, "registration with the controller: " + e);
            }
        }
        String classes = shell.check(Testbed.inNode(spec, TestbedSpec.SWITCH,
                List.of("tc", "class", "show", "dev", spec.switchPortDevice(Flows.RECEIVER))));
        report.check(classes.lines().filter(l -> l.startsWith("class htb")).count() == 2,
                "controller closed: the switch port is the plain link again");
    }

    /** The proof's phase runner, with the weights the controller chose as expected shares. */
    interface Measure {
        void run(ProofReport report, String phase, List<ProofApp> apps, Map<ProofApp, Integer> tos,
                 Map<ProofApp, Double> weights) throws IOException, InterruptedException;
    }

    private static <T> T await(Supplier<Optional<T>> probe) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            Optional<T> v = probe.get();
            if (v.isPresent()) {
                return v.get();
            }
            Thread.sleep(50);
        }
        return null;
    }
}
