package io.saba.core.table;

/** A sensitivity table that cannot be used; the message names the source, the workload and the field. */
public final class MalformedTableException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public MalformedTableException(String message) {
        super(message);
    }

    public MalformedTableException(String message, Throwable cause) {
        super(message, cause);
    }
}
