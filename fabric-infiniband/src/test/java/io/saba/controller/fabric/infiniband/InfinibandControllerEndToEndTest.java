package io.saba.controller.fabric.infiniband;

import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.awaitPorts;
import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.ep;
import static io.saba.controller.fabric.infiniband.ControllerOnIbSim.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.saba.client.AppSpec;
import io.saba.client.ClientConfig;
import io.saba.client.SabaApplication;
import io.saba.client.SabaClient;
import io.saba.wire.Transport;
import io.saba.controller.server.ControllerConfig;
import io.saba.controller.server.EmbeddedController;
import io.saba.controller.topology.infiniband.IbSubnet;
import io.saba.controller.topology.infiniband.IbSim;
import io.saba.controller.topology.infiniband.IbTools;
import io.saba.controller.topology.infiniband.InfinibandPathResolver;
import io.saba.controller.topology.infiniband.NetFiles;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole chain on a simulated subnet: OpenSM routes an ibsim fat tree; the controller is built from a YAML
 * configuration ({@code topology: {discover: infiniband}}, {@code backend: infiniband}) exactly as
 * {@code saba controller --config} builds it; applications register over real gRPC and report connections between
 * simulated hosts (by their IPoIB addresses). {@code smpquery} then shows that exactly the switch ports on those
 * connections' paths carry Saba's SL→VL and VL arbitration tables, that a pulled cable moves them to the new
 * path, and that every port is back to its original tables when the applications leave.
 */
class InfinibandControllerEndToEndTest {
    @TempDir
    Path tmp;

    @BeforeAll
    static void tools() {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
    }

    @Test
    void exactlyThePathPortsCarrySabaTablesAndReturnToDefault() throws Exception {
        Path net = NetFiles.write(tmp, "fat-tree", NetFiles.fatTree(2, 4, 2));
        try (IbSim sim = new IbSim(net, 0)) {
            IbTools tools = sim.tools();
            IbSubnet f = tools.discover();
            Map<PortId, Tables> original = snapshot(tools, f);

            Path config = ControllerOnIbSim.config(tmp, sim, 8, "refresh-seconds: 0");
            try (EmbeddedController c = ControllerConfig.load(config)) {
                c.start();
                InfinibandPathResolver resolver = (InfinibandPathResolver) c.controller().resolver();
                InfinibandBackend backend = (InfinibandBackend) c.backend();
                try (SabaClient client = SabaClient.connect(ClientConfig.defaults(c.target())
                        .withDeadline(Duration.ofSeconds(10)))) {
                    SabaApplication lr = client.register(new AppSpec("app-lr", "lr", "spark", "u", 0));
                    SabaApplication sort = client.register(new AppSpec("app-sort", "sort", "spark", "u", 0));
                    lr.assigned().get();
                    sort.assigned().get();
                    // ask the controller (lr keeps its first level; sort takes a free one)
                    int lrLevel = c.controller().app("app-lr").level();
                    int sortLevel = c.controller().app("app-sort").level();
                    assertNotEquals(lrLevel, sortLevel, "different models, different levels");
                    // h01 -> h05 and h06 -> h02 cross the spines; h03 -> h04 stays in leaf 2
                    lr.connectionOpened(ep(1, 4000), ep(5, 5000), Transport.RDMA);
                    sort.connectionOpened(ep(6, 4001), ep(2, 5001), Transport.RDMA);
                    sort.connectionOpened(ep(3, 4002), ep(4, 5002), Transport.RDMA);
                    Set<PortId> onPaths = new TreeSet<>();
                    onPaths.addAll(resolver.path("h01", "h05"));
                    onPaths.addAll(resolver.path("h06", "h02"));
                    onPaths.addAll(resolver.path("h03", "h04"));
                    awaitPorts(c, onPaths);
                    checkFabric(tools, f, original, onPaths, c.controller().recomputer().current(), backend);
                    // the level's SL maps to a Saba VL (not VL 0) on every port its connection crosses
                    for (PortId p : resolver.path("h01", "h05")) {
                        int vl = SmpQuery.sl2vl(tools, f.switchNamed(p.node()).lid(), p.port()).get(0).get(lrLevel);
                        assertTrue(vl > 0, "SL " + lrLevel + " (lr) uses a Saba VL at " + p);
                    }
                    System.out.println("programmed " + onPaths.size() + " ports: " + onPaths);

                    // pull the spine cable h01 -> h05 leaves through: OpenSM re-routes, the resolver sees it, the
                    // controller moves the connection and the new path's ports get the tables
                    List<PortId> before = resolver.path("h01", "h05");
                    PortId spineHop = before.stream().filter(p -> p.node().startsWith("spine")).findFirst()
                            .orElseThrow();
                    sim.console("Unlink \"" + spineHop.node() + "\"[" + spineHop.port() + "]");
                    sim.awaitRouted(60_000);
                    waitFor(() -> resolver.refresh() || !resolver.path("h01", "h05").equals(before));
                    List<PortId> after = resolver.path("h01", "h05");
                    assertFalse(after.contains(spineHop), after.toString());
                    Set<PortId> nowOnPaths = new TreeSet<>();
                    nowOnPaths.addAll(after);
                    nowOnPaths.addAll(resolver.path("h06", "h02"));
                    nowOnPaths.addAll(resolver.path("h03", "h04"));
                    awaitPorts(c, nowOnPaths);
                    IbSubnet f2 = resolver.fabric();
                    checkFabric(tools, f2, original, nowOnPaths, c.controller().recomputer().current(), backend);
                    assertTrue(backend.verify().isEmpty(), "OpenSM's re-route (QoS off) left Saba's tables alone");
                    // the status pages say the check ran, over how many ports, and that none drifted
                    String base = "http://127.0.0.1:" + c.httpAddress().getPort();
                    JsonNode check = new ObjectMapper().readTree(get(base + "/status.json")).at("/fabric/drift_check");
                    assertEquals(nowOnPaths.size(), check.get("ports").asInt(), check.toString());
                    assertFalse(check.get("last").isNull(), check.toString());
                    String page = get(base + "/status");
                    assertTrue(page.contains("read " + nowOnPaths.size() + " ports: <span class=\"ok\">none drifted"),
                            page);
                    System.out.println("after pulling " + spineHop + ": h01->h05 " + before + " -> " + after);

                    lr.deregister();
                    sort.deregister();
                    awaitPorts(c, Set.of());
                }
                assertEquals(original, snapshot(tools, f), "every port back to its original tables");
                assertTrue(backend.managedPorts().isEmpty());
            }
        }
    }

    private static String get(String url) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), url);
        return r.body();
    }

    /** The tables of every cabled switch port, as smpquery shows them. */
    record Tables(SmpQuery.VlArb vlarb, Map<Integer, List<Integer>> sl2vl) {
    }

    private static Map<PortId, Tables> snapshot(IbTools tools, IbSubnet f) {
        Map<PortId, Tables> out = new TreeMap<>();
        for (PortId p : switchPorts(f)) {
            int lid = f.switchNamed(p.node()).lid();
            out.put(p, new Tables(SmpQuery.vlarb(tools, lid, p.port()), SmpQuery.sl2vl(tools, lid, p.port())));
        }
        return out;
    }

    private static List<PortId> switchPorts(IbSubnet f) {
        List<PortId> out = new ArrayList<>();
        f.switchNames().forEach((guid, name) -> {
            for (int port = 1; port <= f.nodes().get(guid).ports(); port++) {
                out.add(new PortId(name, port));
            }
        });
        return out;
    }

    /**
     * Ports on the paths carry the controller's allocation (the arbitration weights its plan gives, SL of each level
     * present → its queue); every other port has exactly its original tables.
     */
    private static void checkFabric(IbTools tools, IbSubnet f, Map<PortId, Tables> original, Set<PortId> onPaths,
                                    Map<PortId, PortAllocation> allocations, InfinibandBackend backend) {
        assertEquals(onPaths, allocations.keySet(), "the controller allocated exactly the path ports");
        assertEquals(onPaths, backend.managedPorts().keySet(), "the backend manages exactly the path ports");
        Set<PortId> saba = new HashSet<>();
        for (PortId p : switchPorts(f)) {
            if (!onPaths.contains(p)) {
                int lid = f.switchNamed(p.node()).lid();
                assertEquals(original.get(p), new Tables(SmpQuery.vlarb(tools, lid, p.port()),
                        SmpQuery.sl2vl(tools, lid, p.port())), p + " is off every path: untouched");
                continue;
            }
            VlArbPlan plan = ControllerOnIbSim.checkPort(tools, f, p, allocations.get(p), backend);
            double vl0 = plan.deliveredShares()[0];
            assertEquals(0.1, vl0, 0.05, p + ": the non-Saba VL keeps about 1 - C_Saba");
            saba.add(p);
        }
        assertEquals(onPaths, saba);
    }
}
