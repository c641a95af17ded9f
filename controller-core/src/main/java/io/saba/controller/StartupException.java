package io.saba.controller;

/**
 * The controller cannot start where it was asked to: its journal directory is held by another controller, a port is
 * in use, the fabric is not there. An operator's to fix, not a bug: the command line prints the message alone, in
 * one line, and exits with status 2. The message names what is in the way.
 */
public final class StartupException extends RuntimeException {
    public StartupException(String message) {
        super(message);
    }

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
