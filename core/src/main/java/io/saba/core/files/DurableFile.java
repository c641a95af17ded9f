package io.saba.core.files;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a small state file so that a crash at any moment leaves either the old content or the new one, never a
 * mix or an empty file: what Saba keeps to give a fabric or a host back (ports' originals, an agent's NIC, the hosts
 * learned from agents) must survive a kill -9 and a power cut.
 */
public final class DurableFile {
    private DurableFile() {
    }

    /**
     * Writes {@code content} to a temporary sibling, forces it to disk, renames it over {@code file} and forces the
     * directory, so the rename is durable too. Creates the directory if needed.
     */
    public static void replace(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(content);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(dir);
    }

    /** Forces a directory's entries to disk; a file system that cannot (some cannot fsync a directory) is left be. */
    public static void forceDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // the rename is then as durable as that file system makes it
        }
    }
}
