package io.saba.controller.server;

import io.saba.controller.GroupMembership;
import io.saba.controller.alloc.AllocationPipeline;
import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.controller.estimate.SensitivityMode;
import io.saba.core.alloc.LevelMode;
import io.saba.controller.fabric.DryRunBackend;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.journal.FsyncPolicy;
import io.saba.controller.topology.PathResolver;
import io.saba.core.cluster.LevelAssigner;
import io.saba.core.table.ModelCatalog;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an {@link EmbeddedController} is built from, with the defaults of an embedded controller (loopback, ephemeral
 * port, memory only, dry-run): the values its {@link EmbeddedController.Builder} sets, read by the parts it starts.
 */
final class Settings {
    InetSocketAddress listen = new InetSocketAddress("127.0.0.1", 0);
    InetSocketAddress http;
    PathResolver topology;
    ModelCatalog table = ModelCatalog.empty();
    /** The table file a ReloadTable without inline JSON rereads, or null. */
    Path tableFile;
    double cSaba = 0.9;
    int levels = LevelAssigner.ETHERNET_LEVELS;
    FabricBackend backend;
    /** Whether the controller closes the backend when it closes. */
    boolean closeBackend = true;
    Path journalDir;
    FsyncPolicy fsync = FsyncPolicy.INTERVAL;
    long fsyncMillis = 20;
    Duration leaseTimeout = Duration.ofSeconds(30);
    Path tlsCert;
    Path tlsKey;
    Map<String, String> tokens = Map.of();
    Map<String, String> agentTokens = Map.of();
    Set<String> adminTenants = Set.of();
    /** Negative: chosen by {@link #complete}. */
    int grpcThreads = -1;
    Duration roundInterval = Duration.ofMillis(5);
    Allocation allocation = Allocation.EQ2;
    double corunMargin = AllocationPipeline.DEFAULT_CORUN_MARGIN;
    SensitivityMode sensitivity = SensitivityMode.TABLE;
    LevelMode levelPer = LevelMode.WORKLOAD;
    String groupUri;
    boolean health;
    GroupMembership group;

    /**
     * Fills in what was left to the controller (a dry-run backend, the gRPC threads) and refuses what cannot run.
     *
     * @throws IllegalArgumentException naming the setting at fault
     */
    void complete() {
        Objects.requireNonNull(topology, "a controller needs a topology");
        if (backend == null) {
            backend = new DryRunBackend(true, 10_000);
        }
        if (cSaba <= 0 || cSaba > 1) {
            throw new IllegalArgumentException("c-saba must be in (0, 1], got " + cSaba);
        }
        if (grpcThreads < 0) {
            // a group member's calls wait for the shared log (milliseconds, no CPU): more threads let more
            // calls share one log entry
            grpcThreads = group != null ? 64 : Math.max(2, Runtime.getRuntime().availableProcessors());
        }
        if (group != null && journalDir != null) {
            throw new IllegalArgumentException("journal-dir and group exclude each other: a controller group's "
                    + "record is its shared log in ZooKeeper");
        }
        if (leaseTimeout.isNegative() || leaseTimeout.isZero()) {
            throw new IllegalArgumentException("lease timeout must be positive, got " + leaseTimeout);
        }
    }
}
