package io.saba.core.alloc;

/**
 * One connection of an application, as the library reports it: the hosts its data flows from and to. Many
 * connections may have the same three fields; they are counted, not merged.
 *
 * @param appId   the owning application
 * @param srcHost the sending host (topology name)
 * @param dstHost the receiving host (topology name)
 */
public record Connection(String appId, String srcHost, String dstHost) {
    public Connection {
        if (appId == null || srcHost == null || dstHost == null) {
            throw new IllegalArgumentException("a connection needs an application id and two hosts");
        }
    }
}
