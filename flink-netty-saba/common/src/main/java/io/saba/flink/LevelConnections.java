package io.saba.flink;

/**
 * Gives every priority level its own TCP connections between two TaskManagers.
 *
 * <p>Flink pools data connections by (producer, connection index modulo
 * {@code taskmanager.network.max-num-tcp-connections}); the index is random per intermediate result, and the
 * default of one connection per TaskManager pair makes all jobs of a session cluster share one socket, which can
 * carry only one TOS. Saba rewrites each partition's index so that index ≡ level (mod levels) and rounds the
 * connection count up to a multiple of the number of levels: partitions of different levels then never share a
 * connection, while partitions of one level still spread over count/levels connections as Flink intends. Jobs at the
 * same level may share sockets, which is harmless: they carry the same DSCP.
 */
final class LevelConnections {
    private LevelConnections() {
    }

    /** The smallest multiple of {@code levels} that is ≥ {@code configured}. */
    static int connectionCount(int configured, int levels) {
        int c = Math.max(1, configured);
        return ((c + levels - 1) / levels) * levels;
    }

    /** {@code original} moved to the nearest index ≡ level (mod levels), never negative. */
    static int index(int original, int level, int levels) {
        int base = Math.max(0, original) - Math.floorMod(Math.max(0, original), levels);
        if (base > Integer.MAX_VALUE - levels) {
            base -= levels;
        }
        return base + level;
    }

    /** The level an index built by {@link #index} stands for. */
    static int level(int index, int levels) {
        return Math.floorMod(index, levels);
    }
}
