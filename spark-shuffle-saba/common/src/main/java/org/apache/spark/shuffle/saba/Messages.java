package org.apache.spark.shuffle.saba;

import java.io.Serializable;
import java.util.List;

/** What executors and the driver plugin say to each other over Spark's plugin RPC (Java-serialised). */
final class Messages {
    private Messages() {
    }

    /** Executor → driver (ask): the TOS byte the application's traffic should carry now. Reply: {@link TosAnswer}. */
    record TosQuery(String executorId) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The application's TOS byte now, and how long until the driver can next learn another one (its next heartbeat
     * to the controller; 0 when that may be any moment): when asking again is worth it.
     */
    record TosAnswer(int tos, long untilNewsMillis) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * Executor → driver (send): a connection of the application opened or closed, in one direction its data flows:
     * from {@code src} to {@code dst} (a connection that carries data both ways is two events).
     */
    record ConnectionEvent(boolean open, String srcIp, int srcPort, String dstIp, int dstPort)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        ConnectionEvent closed() {
            return new ConnectionEvent(false, srcIp, srcPort, dstIp, dstPort);
        }
    }

    /** Several events in one message. */
    record ConnectionEvents(List<ConnectionEvent> events) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
