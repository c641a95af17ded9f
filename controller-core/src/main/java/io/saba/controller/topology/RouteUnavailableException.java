package io.saba.controller.topology;

/**
 * A route a discovered fabric cannot give now but may give after its next refresh: the subnet manager has not
 * assigned the hosts' LIDs or programmed the forwarding tables yet, or is re-routing around a pulled cable. The
 * controller keeps a connection whose path fails this way, without ports, until a refresh finds its route; any other
 * failure of {@link PathResolver#path} refuses the connection.
 */
public final class RouteUnavailableException extends IllegalStateException {
    public RouteUnavailableException(String message) {
        super(message);
    }

    /** Expected while a subnet comes up, possibly once per event: no stack trace to fill. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
