package io.saba.bench.jmh;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.saba.bench.ControllerBench;
import io.saba.controller.Metrics;
import io.saba.controller.alloc.Recomputer;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.state.Mutation;
import io.saba.controller.topology.TopologyLoader;
import io.saba.controller.topology.TopologyResolver;
import io.saba.core.alloc.Allocator;
import io.saba.core.alloc.PortApps;
import io.saba.core.alloc.PortId;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ModelCatalog;
import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The controller's work per port and per event, without gRPC or the journal, on the state {@code saba controller
 * bench} builds (fat tree k = 16, 1,000 applications of 10 workloads, 100,000 open connections, about 100
 * applications per port):
 *
 * <ul>
 *   <li>{@link #snapshot}: copying a port's applications under the controller's lock (what a recompute round
 *       takes per port);</li>
 *   <li>{@link #allocate}: the port's allocation from that copy (Eq. 2, queues, per-application weights);</li>
 *   <li>{@link #closeAndOpen}: one connection closed and opened again through the replica (two events: routing,
 *       ports joined and left, ports marked dirty).</li>
 * </ul>
 *
 * Times are per port or per event; run with {@code -prof gc} for the bytes each allocates.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class RecomputeBenchmark {
    private static final int CHUNK = 64;

    private Replica replica;
    private Allocator allocator;
    private List<PortId> ports;
    private Recomputer.Snapshot snapshots;
    private List<ConnectionKey> keys;
    private int nextChunk;
    private int nextKey;

    @Setup
    public void setUp() throws Exception {
        TopologyResolver topo = TopologyLoader.fromNode(new ObjectMapper(new YAMLFactory()).readTree(
                "{shape: 'fat-tree:16', gbps: 100, queues: 8, address-base: 10.0.0.1}"), "bench", null);
        List<String> ips = new ArrayList<>(topo.addresses().keySet());
        ips.sort(String::compareTo);
        ModelCatalog catalog = ControllerBench.syntheticCatalog();
        List<String> workloads = new ArrayList<>(catalog.models().keySet());
        allocator = new Allocator(new MinSlowdownSolver(), LevelAssigner.ETHERNET_LEVELS, 0.9);
        Set<PortId> touched = new LinkedHashSet<>();
        replica = new Replica(topo, allocator, catalog, touched::addAll, new Metrics(), Duration.ofHours(1));
        for (int i = 0; i < 1_000; i++) {
            replica.apply(new LogRequest.Call("", LogRequest.Kind.REGISTER, List.of(new Mutation.Register(
                    "app-" + i, workloads.get(i % workloads.size()), "bench", "bench", 0, ""))));
        }
        Random r = new Random(42);
        keys = new ArrayList<>();
        List<Mutation> opens = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            ConnectionKey k = new ConnectionKey(ips.get(r.nextInt(ips.size())), 1024 + i % 60_000,
                    ips.get(r.nextInt(ips.size())), 7337, Transport.TCP);
            keys.add(k);
            opens.add(new Mutation.Opened("app-" + (i % 1_000), k, 0));
            if (opens.size() == 1_000) {
                replica.apply(new LogRequest.Call("", LogRequest.Kind.BATCH, opens));
                opens.clear();
            }
        }
        ports = new ArrayList<>(touched);
        snapshots = replica.portSnapshot(ports);
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK)
    public Recomputer.Snapshot snapshot() {
        int from = nextChunk;
        nextChunk = from + CHUNK >= ports.size() ? 0 : from + CHUNK;
        return replica.portSnapshot(ports.subList(from, from + CHUNK));
    }

    @Benchmark
    @OperationsPerInvocation(CHUNK)
    public int allocate() {
        int from = nextChunk;
        nextChunk = from + CHUNK >= ports.size() ? 0 : from + CHUNK;
        int queues = 0;
        for (PortId p : ports.subList(from, from + CHUNK)) {
            PortApps apps = snapshots.appsAt().get(p);
            if (!apps.isEmpty()) {
                queues += allocator.allocatePort(p, 8, apps, snapshots.plan()).queueOfLevel().size();
            }
        }
        return queues;
    }

    @Benchmark
    @OperationsPerInvocation(2)
    public Object closeAndOpen() {
        int i = nextKey;
        nextKey = (i + 1) % keys.size();
        String app = "app-" + (i % 1_000);
        replica.apply(new LogRequest.Call("", LogRequest.Kind.EVENT, List.of(new Mutation.Closed(app, keys.get(i), 0))));
        return replica.apply(new LogRequest.Call("", LogRequest.Kind.EVENT,
                List.of(new Mutation.Opened(app, keys.get(i), 0))));
    }

    /** For a quick look without JMH's runner: {@code java -cp ... io.saba.bench.jmh.RecomputeBenchmark}. */
    public static void main(String[] args) throws Exception {
        org.openjdk.jmh.Main.main(new String[] {RecomputeBenchmark.class.getSimpleName(), "-prof", "gc"});
    }
}
