package io.saba.controller.fabric;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.saba.core.alloc.PortId;
import io.saba.core.files.DurableFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What each port held before a backend first wrote to it, kept where a crash cannot lose it: a file beside the
 * journal ({@value #FILE}), rewritten atomically (temporary file, fsync, rename, fsync of the directory) before a
 * backend's first write to a port returns, and an entry dropped once the port has its original configuration back.
 * So a controller started after a crash, or {@code saba fabric restore}, puts back what the port had before Saba,
 * not what it reads there (which is the crashed controller's own configuration).
 *
 * <p>Entries are per backend and port; the value is the backend's own text (InfiniBand: the tables in hex; Linux:
 * whether the HTB root was there). Without a journal directory the store lives in memory only.
 * Thread-safe.
 */
public final class PortOriginals {
    public static final String FILE = "fabric-originals.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;
    /** backend → port ("node:port") → the backend's text. */
    private final Map<String, Map<String, String>> entries;

    private PortOriginals(Path file, Map<String, Map<String, String>> entries) {
        this.file = file;
        this.entries = entries;
    }

    /** A store that forgets with the process (no journal directory). */
    public static PortOriginals inMemory() {
        return new PortOriginals(null, new TreeMap<>());
    }

    /**
     * The store in {@code dir} (the journal directory, whose lock the caller holds), with what a previous controller
     * left there.
     *
     * @throws IllegalArgumentException naming the file when it is not what this class writes
     */
    public static PortOriginals in(Path dir) {
        Path f = dir.resolve(FILE);
        Map<String, Map<String, String>> read = new TreeMap<>();
        if (Files.exists(f)) {
            try {
                read.putAll(JSON.readValue(f.toFile(), new TypeReference<Map<String, Map<String, String>>>() { }));
            } catch (IOException e) {
                throw new IllegalArgumentException(f + ": not a saved-originals file (" + e.getMessage() + ")", e);
            }
            read.replaceAll((k, v) -> new TreeMap<>(v));
        }
        return new PortOriginals(f, read);
    }

    /** Where the store is kept, or null in memory. */
    public Path file() {
        return file;
    }

    public synchronized Optional<String> get(String backend, PortId port) {
        return Optional.ofNullable(entries.getOrDefault(backend, Map.of()).get(port.toString()));
    }

    /** Keeps a port's original; durable when this returns (the caller writes to the port only afterwards). */
    public synchronized void put(String backend, PortId port, String original) {
        String before = entries.computeIfAbsent(backend, k -> new TreeMap<>()).put(port.toString(), original);
        if (!original.equals(before)) {
            save();
        }
    }

    /** Forgets a port (it has its original back). */
    public synchronized void remove(String backend, PortId port) {
        Map<String, String> m = entries.get(backend);
        if (m != null && m.remove(port.toString()) != null) {
            if (m.isEmpty()) {
                entries.remove(backend);
            }
            save();
        }
    }

    /** Every port with a saved original for this backend. */
    public synchronized Map<PortId, String> all(String backend) {
        Map<PortId, String> out = new TreeMap<>();
        entries.getOrDefault(backend, Map.of()).forEach((p, v) -> out.put(PortId.parse(p), v));
        return out;
    }

    private void save() {
        if (file == null) {
            return;
        }
        try {
            DurableFile.replace(file, JSON.writeValueAsBytes(entries));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the ports' original configurations in " + file, e);
        }
    }
}
