package io.saba.controller;

/**
 * An application's connection reports the controller refused (an endpoint no topology host owns, such as the
 * 127.0.0.1 a local Spark job reports): how many, and the latest reason, so that the operator sees why an
 * application holds fewer connections than it opened.
 */
public record ConnectionRejections(long count, String lastReason) {
    ConnectionRejections plus(String reason) {
        return new ConnectionRejections(count + 1, reason);
    }

    /** One more refusal of {@code reason} after {@code before} (null: the first). */
    public static ConnectionRejections after(ConnectionRejections before, String reason) {
        return before == null ? new ConnectionRejections(1, reason) : before.plus(reason);
    }
}
