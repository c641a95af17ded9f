package io.saba.controller.group;

import io.saba.controller.log.LogCodec;
import io.saba.controller.log.LogRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group's snapshots in ZooKeeper, which let the log be trimmed: the leader writes a replica's state (as the
 * requests that rebuild it) in chunks below ZooKeeper's node limit, points to it, and trims the log up to what every
 * member has applied; a member that falls behind the trim reads it back.
 */
final class ZkSnapshots {
    private static final Logger LOG = LoggerFactory.getLogger(ZkSnapshots.class);
    private static final int CHUNK = 512 * 1024;

    /** A replica's state at one position of the log. */
    record Snapshot(long seq, List<LogRequest> requests) {
    }

    private final CuratorFramework zk;

    ZkSnapshots(CuratorFramework zk) {
        this.zk = zk;
    }

    /** The newest complete snapshot. */
    Snapshot read() throws Exception {
        long seq = readLong(zk.getData().forPath(ZkPaths.SNAPSHOT), -1);
        List<String> chunks = zk.getChildren().forPath(ZkPaths.snapshot(seq));
        chunks.sort(null);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String c : chunks) {
            all.write(zk.getData().forPath(ZkPaths.snapshot(seq) + "/" + c));
        }
        return new Snapshot(seq, LogCodec.decode(all.toByteArray()).requests());
    }

    /** Writes the snapshot in chunks, points to it, then trims what every member has applied. */
    void write(Snapshot s) throws Exception {
        byte[] data = LogCodec.encode("snapshot", s.requests());
        String dir = ZkPaths.snapshot(s.seq());
        if (zk.checkExists().forPath(dir) == null) {
            zk.create().forPath(dir);
            for (int i = 0, c = 0; i < data.length || c == 0; i += CHUNK, c++) {
                byte[] chunk = java.util.Arrays.copyOfRange(data, i, Math.min(data.length, i + CHUNK));
                zk.create().forPath(String.format("%s/c-%05d", dir, c), chunk);
            }
        }
        byte[] pointer = Long.toString(s.seq()).getBytes(StandardCharsets.UTF_8);
        if (zk.checkExists().forPath(ZkPaths.SNAPSHOT) == null) {
            zk.create().forPath(ZkPaths.SNAPSHOT, pointer);
        } else {
            zk.setData().forPath(ZkPaths.SNAPSHOT, pointer);
        }
        for (String old : zk.getChildren().forPath(ZkPaths.SNAPSHOTS)) {
            if (ZkPaths.sequenceOf(old) != s.seq()) {
                zk.delete().deletingChildrenIfNeeded().inBackground().forPath(ZkPaths.SNAPSHOTS + "/" + old);
            }
        }
        trim(s.seq());
    }

    private void trim(long snapshotSeq) throws Exception {
        long upTo = snapshotSeq;
        for (String m : zk.getChildren().forPath(ZkPaths.MEMBERS)) {
            try {
                upTo = Math.min(upTo, readLong(zk.getData().forPath(ZkPaths.MEMBERS + "/" + m), -1));
            } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
                // a session that ended since the listing: nothing of it to wait for
            }
        }
        if (upTo <= readLong(zk.getData().forPath(ZkPaths.LOG), -1)) {
            return;
        }
        zk.setData().forPath(ZkPaths.LOG, Long.toString(upTo).getBytes(StandardCharsets.UTF_8));
        int deleted = 0;
        for (String c : zk.getChildren().forPath(ZkPaths.LOG)) {
            if (ZkPaths.sequenceOf(c) <= upTo) {
                zk.delete().inBackground().forPath(ZkPaths.LOG + "/" + c);
                deleted++;
            }
        }
        LOG.debug("controller group: snapshot at {}, trimmed {} log entries up to {}", snapshotSeq, deleted, upTo);
    }

    /** A znode's data as a number (a sequence), or {@code absent}. */
    static long readLong(byte[] data, long absent) {
        if (data == null || data.length == 0) {
            return absent;
        }
        try {
            return Long.parseLong(new String(data, StandardCharsets.UTF_8).trim());
        } catch (NumberFormatException e) {
            return absent;
        }
    }
}
