package org.apache.spark.shuffle.saba;

import java.io.Serializable;
import java.util.List;

/** What executors and the driver plugin say to each other over Spark's plugin RPC (Java-serialised). */
final class Messages {
    private Messages() {
    }

    /** Executor → driver (ask): the TOS byte the application's traffic should carry now. Reply: Integer. */
    record TosQuery(String executorId) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * Executor → driver (send): a shuffle connection opened or closed. Bulk data flows from {@code src} (the serving
     * executor's block-transfer endpoint) to {@code dst} (the fetching side).
     */
    record ConnectionEvent(boolean open, String srcIp, int srcPort, String dstIp, int dstPort)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Several events in one message. */
    record ConnectionEvents(List<ConnectionEvent> events) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
