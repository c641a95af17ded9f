package io.saba.controller.journal;

/**
 * When the journal forces its bytes to the disk. Every policy hands each acknowledged record to the operating
 * system before the RPC answers, so a crash of the controller process alone never loses an acknowledged change.
 * They differ only for a crash of the machine.
 */
public enum FsyncPolicy {
    /** fsync before every acknowledgement: nothing acknowledged is lost, at the price of one fsync per request. */
    ALWAYS,
    /**
     * fsync every {@code journal-fsync-millis} (default): a machine crash loses at most that window, which clients
     * repair anyway because they re-sync their full state when the controller returns.
     */
    INTERVAL,
    /** Leave it to the operating system (tests, benchmarks). */
    NEVER
}
