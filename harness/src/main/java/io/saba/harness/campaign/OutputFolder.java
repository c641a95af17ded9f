package io.saba.harness.campaign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A campaign's output folder: created if missing; holds a fingerprint of the configuration so a resumed run
 * never mixes results of different configurations.
 */
public final class OutputFolder {
    private static final String FINGERPRINT = "campaign.fingerprint";

    private OutputFolder() {
    }

    /**
     * @return true if the folder already held results of this same configuration (resume)
     * @throws IllegalArgumentException if it holds results of another configuration (the operator's --out
     *                                  names the wrong folder)
     */
    public static boolean prepare(Path dir, String fingerprint) {
        try {
            Files.createDirectories(dir);
            Path f = dir.resolve(FINGERPRINT);
            if (Files.exists(f)) {
                String old = Files.readString(f, StandardCharsets.UTF_8).trim();
                if (!old.equals(fingerprint)) {
                    throw new IllegalArgumentException("output folder " + dir + " holds another campaign (" + old
                            + "); use another --out or delete it");
                }
                return true;
            }
            Files.writeString(f, fingerprint + "\n", StandardCharsets.UTF_8);
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
