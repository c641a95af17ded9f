package io.saba.controller.group;

/** The group's znodes, relative to its namespace (the path of its zk:// URI). */
final class ZkPaths {
    /** Persistent-sequential entries {@code e-NNNNNNNNNN}; the node's data is the last trimmed sequence. */
    static final String LOG = "/log";
    static final String ENTRY_PREFIX = LOG + "/e-";
    /**
     * One ephemeral node per live member session, {@code ID@SESSION}; its data is the last log sequence the member
     * applied.
     */
    static final String MEMBERS = "/members";
    /** One ephemeral claim per switch (and per host whose NIC is managed), held by the member programming it. */
    static final String OWNERS = "/owners";
    static final String LEADER = "/leader";
    /** Data: the sequence of the newest complete snapshot. */
    static final String SNAPSHOT = "/snapshot";
    /** {@code s-SEQ/c-NNNNN}: a snapshot in chunks below ZooKeeper's 1 MB node limit. */
    static final String SNAPSHOTS = "/snapshots";

    private ZkPaths() {
    }

    /** A member's node for one session: {@code /members/ID@SESSION} (ids contain no '/'). */
    static String memberNode(String id, long session) {
        return MEMBERS + "/" + id + "@" + Long.toHexString(session);
    }

    /** The member id a child of {@code /members} names. */
    static String memberIdOf(String child) {
        int at = child.lastIndexOf('@');
        return at < 0 ? child : child.substring(0, at);
    }

    static String owner(String sw) {
        return OWNERS + "/" + java.net.URLEncoder.encode(sw, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * A host's claim (its NIC's ports), {@code /owners/host:HOST}: the encoded name of a switch never holds a ':', so
     * a host's claim never meets a switch's.
     */
    static String hostOwner(String host) {
        return OWNERS + "/host:" + java.net.URLEncoder.encode(host, java.nio.charset.StandardCharsets.UTF_8);
    }

    static long sequenceOf(String child) {
        return Long.parseLong(child.substring(child.lastIndexOf('-') + 1));
    }

    static String snapshot(long seq) {
        return SNAPSHOTS + "/s-" + seq;
    }
}
