package io.saba.core.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.Eq2Solver;
import io.saba.core.testing.Workloads;
import io.saba.core.topology.Topologies;
import io.saba.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The paper's 1,944-server cluster under a realistic load; prints timings (no timing assertions). */
class AllocationScaleTest {

    @Test
    void paperClusterWithRandomJobs() {
        Topology t = Topologies.spineLeaf();
        List<SensitivityModel> models = List.copyOf(Workloads.hibench().values());
        List<String> hosts = new ArrayList<>(t.hosts());
        Random r = new Random(5);
        Allocator allocator = new Allocator(new Eq2Solver(), 16, 0.9);
        AllocationState state = new AllocationState(allocator, t);

        long t0 = System.nanoTime();
        for (int a = 0; a < 200; a++) {
            state.register(new Application(String.format("job%03d", a), "w", models.get(a % models.size())));
        }
        long t1 = System.nanoTime();
        List<Connection> open = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Connection c = new Connection(String.format("job%03d", r.nextInt(200)),
                    hosts.get(r.nextInt(hosts.size())), hosts.get(r.nextInt(hosts.size())));
            state.connectionCreated(c);
            open.add(c);
        }
        long t2 = System.nanoTime();
        AllocationResult scratch = allocator.allocate(state.applications(), open, t);
        long t3 = System.nanoTime();
        System.out.printf("200 registrations %d ms; 10,000 connection events %d ms; from scratch %d ms; %d ports in use%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (t3 - t2) / 1_000_000, scratch.ports().size());

        assertEquals(10, scratch.levelCentroids().size(), "ten distinct workloads, ten levels");
        AllocationResult incremental = state.snapshot();
        assertEquals(scratch.ports().keySet(), incremental.ports().keySet());
        for (PortId p : scratch.ports().keySet()) {
            assertTrue(Allocator.sameAllocation(scratch.ports().get(p), incremental.ports().get(p)), p.toString());
            double[] q = scratch.ports().get(p).queueWeights();
            double sum = 0;
            for (double w : q) {
                sum += w;
            }
            assertEquals(1.0, sum, 1e-9, "weights of " + p);
        }
    }
}
