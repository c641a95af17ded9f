package io.saba.core.alloc;

/**
 * A switch output port: the unit Saba allocates bandwidth on.
 *
 * @param node the switch (or, for host-based enforcement, the host) that owns the port
 * @param port the port number on that node, as the fabric numbers it
 */
public record PortId(String node, int port) implements Comparable<PortId> {
    public PortId {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("a port needs a node name");
        }
        if (port < 0) {
            throw new IllegalArgumentException("port number must be ≥ 0, got " + port + " on " + node);
        }
    }

    /**
     * The inverse of {@link #toString()}: "node:port" (the node may itself contain colons).
     *
     * @throws IllegalArgumentException if the text is not node:port
     */
    public static PortId parse(String text) {
        int colon = text.lastIndexOf(':');
        try {
            return new PortId(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not node:port", e);
        }
    }

    /** Written out: ports are hashed several times per connection event, and this is cheaper than the generated one. */
    @Override
    public int hashCode() {
        return 31 * node.hashCode() + port;
    }

    @Override
    public boolean equals(Object o) {
        return this == o || o instanceof PortId p && port == p.port && node.equals(p.node);
    }

    @Override
    public int compareTo(PortId o) {
        int c = node.compareTo(o.node);
        return c != 0 ? c : Integer.compare(port, o.port);
    }

    @Override
    public String toString() {
        return node + ":" + port;
    }
}
