package io.saba.controller.group;

import io.saba.controller.LeaseReaper;
import io.saba.controller.SabaController;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.Replica;
import io.saba.controller.state.StateReads;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.cluster.LevelAssignment;
import io.saba.core.model.SensitivityModel;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the elected member does for the group, through the shared log like any write: adopts a sensitivity table
 * while the log carries none, plans levels when the workloads present change (or, under {@code level-per:
 * application}, the applications; core's pipeline, the same K-means a lone controller runs), ends registrations
 * whose lease ran out, and writes snapshots so the log can be trimmed.
 */
final class GroupLeader {
    private static final Logger LOG = LoggerFactory.getLogger(GroupLeader.class);
    private static final long SNAPSHOT_EVERY_ENTRIES = 1_000;
    private static final long SNAPSHOT_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String id;
    private final ZkStateLog log;
    private final ZkSnapshots snapshots;
    private final Replica replica;
    private final LogRequest.Table configuredTable;
    private long lastSnapshotSeq = -1;
    private long lastSnapshotNanos = System.nanoTime();
    private final long reapEveryNanos;
    private long lastReapNanos;

    GroupLeader(String id, ZkStateLog log, ZkSnapshots snapshots, SabaController controller,
                LogRequest.Table configuredTable) {
        this.id = id;
        this.log = log;
        this.snapshots = snapshots;
        this.replica = controller.replica();
        this.configuredTable = configuredTable;
        this.reapEveryNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(10, Math.min(1000, replica.leaseMillis() / 4)));
        this.lastReapNanos = System.nanoTime() - reapEveryNanos;
    }

    /**
     * Expires the leases that ran out (every quarter lease, at most every second), once this replica has applied
     * every renewal the log holds: another member acknowledged those, so they must count.
     */
    private void reapLeases() throws Exception {
        long now = System.nanoTime();
        if (now - lastReapNanos < reapEveryNanos || replica.expiredApplications().isEmpty()) {
            return;
        }
        if (!log.applyEverythingWritten(500)) {
            return; // behind the log: decide next round
        }
        lastReapNanos = now;
        Map<String, String> expired = LeaseReaper.reap(replica, log);
        if (!expired.isEmpty()) {
            LOG.info("controller group: leases of {} ran out", expired.keySet());
        }
    }

    /** One round of the leader's duties (the member calls it while it leads and has caught up with the log). */
    void lead() throws Exception {
        if (replica.table() == null && !configuredTable.models().isEmpty()) {
            log.write(configuredTable);
            LOG.info("controller group adopted member {}'s sensitivity table ({} workloads)", id,
                    configuredTable.models().size());
        }
        SortedMap<String, SensitivityModel> models = replica.read(StateReads::memberModels);
        if (!models.equals(replica.plannedFor())) {
            LevelPlan plan = replica.planLevels(models);
            LevelAssignment a = plan.levels();
            log.write(new LogRequest.Plan(a.levelOfApp(), a.levelCentroids(), models, plan.mode()));
        }
        reapLeases();
        ZkSnapshots.Snapshot s = log.takeCaptured();
        if (s != null) {
            snapshots.write(s);
            lastSnapshotSeq = s.seq();
            lastSnapshotNanos = System.nanoTime();
            log.snapshotWritten();
        } else if (log.applied() > lastSnapshotSeq && (log.entriesSinceSnapshot() >= SNAPSHOT_EVERY_ENTRIES
                || System.nanoTime() - lastSnapshotNanos > SNAPSHOT_EVERY_NANOS)) {
            log.wantSnapshot();
        }
    }
}
