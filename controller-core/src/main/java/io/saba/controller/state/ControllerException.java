package io.saba.controller.state;

/** A request the controller refuses, with a reason precise enough to act on. State is unchanged when thrown. */
public final class ControllerException extends RuntimeException {
    /** Maps one to one onto gRPC status codes in the service layer. */
    public enum Kind { INVALID_ARGUMENT, NOT_FOUND, PERMISSION_DENIED, FAILED_PRECONDITION, UNAUTHENTICATED,
        /** This instance cannot serve now (a group member cut off from its store); the client should try another. */
        UNAVAILABLE }

    private final Kind kind;

    public ControllerException(Kind kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public static ControllerException invalid(String message) {
        return new ControllerException(Kind.INVALID_ARGUMENT, message);
    }

    public static ControllerException notFound(String message) {
        return new ControllerException(Kind.NOT_FOUND, message);
    }

    public static ControllerException unavailable(String message) {
        return new ControllerException(Kind.UNAVAILABLE, message);
    }

    public static ControllerException denied(String message) {
        return new ControllerException(Kind.PERMISSION_DENIED, message);
    }
}
