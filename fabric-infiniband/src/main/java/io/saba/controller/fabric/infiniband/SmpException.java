package io.saba.controller.fabric.infiniband;

/** An SMP that failed: no umad device, a timeout, a port that refused, an agent that died. */
public final class SmpException extends RuntimeException {
    public SmpException(String message) {
        super(message);
    }

    public SmpException(String message, Throwable cause) {
        super(message, cause);
    }

    static String what(int lid, int attribute, int modifier) {
        return String.format("lid %d attribute 0x%x modifier 0x%x", lid, attribute, modifier);
    }
}
