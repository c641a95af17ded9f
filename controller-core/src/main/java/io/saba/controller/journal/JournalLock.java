package io.saba.controller.journal;

import io.saba.controller.StartupException;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * One controller per journal directory: an exclusive lock ({@link FileChannel#tryLock}) on {@code saba.lock} in it,
 * taken before anything there is read and held until the controller closes. Why: a second controller started on the
 * same directory would replay and compact the journal (renaming a new file over the one the first is appending to,
 * so the first's acknowledged writes go to an unlinked file) and push its own idea of the fabric. The file says who
 * holds it (pid, host, since when), so the refusal can name the holder. The operating system drops the lock when
 * the process dies, however it dies, so a crash never leaves a stale lock behind.
 */
public final class JournalLock implements AutoCloseable {
    static final String FILE = "saba.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private JournalLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the directory (creating it).
     *
     * @throws StartupException naming the holder when another controller has it, or when the directory cannot be
     *                          created or written
     */
    public static JournalLock acquire(Path dir) {
        Path file = dir.resolve(FILE);
        FileChannel ch;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new StartupException("journal-dir " + dir + " cannot be used: " + e);
        }
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            lock = null;
        } catch (IOException e) {
            closeQuietly(ch);
            throw new StartupException("journal-dir " + dir + ": cannot lock " + file + ": " + e.getMessage());
        }
        if (lock == null) {
            String holder = holder(ch);
            closeQuietly(ch);
            throw new StartupException("journal-dir " + dir + " is in use by another controller (" + holder
                    + "); stop that one first, or give this one a journal-dir of its own");
        }
        try {
            byte[] me = ("pid " + ProcessHandle.current().pid() + " on " + hostName() + " since " + Instant.now()
                    + "\n").getBytes(StandardCharsets.UTF_8);
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(me), 0);
            ch.force(true);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new StartupException("journal-dir " + dir + ": cannot write " + file + ": " + e.getMessage());
        }
        return new JournalLock(ch, lock);
    }

    private static String holder(FileChannel ch) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(512);
            int n = ch.read(buf, 0);
            String s = n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "holder unknown" : s;
        } catch (IOException e) {
            return "holder unknown: " + e.getMessage();
        }
    }

    /** This host's name as the operator knows it (what {@code hostname} prints, usually). */
    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return System.getenv().getOrDefault("HOSTNAME", "an unknown host");
        }
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing held
        }
    }

    /** Releases the directory (the file stays, naming the last holder). */
    @Override
    public void close() {
        try {
            if (lock.isValid()) {
                lock.release();
            }
        } catch (IOException e) {
            // closing the channel below releases it too
        }
        closeQuietly(channel);
    }
}
