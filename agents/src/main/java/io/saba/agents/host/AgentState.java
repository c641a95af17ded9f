package io.saba.agents.host;

import io.saba.core.files.DurableFile;
import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * Which host, NICs and namespace an agent ran with, kept in its state directory ({@value #FILE}) beside the NICs'
 * originals, so {@code saba agent restore} knows which devices to give back without being told.
 */
public record AgentState(String host, List<NicSpec> nics, String netns) {
    public static final String FILE = "agent.properties";

    /** Writes the file ({@link DurableFile#replace}: a crash leaves the old one or this one). */
    public void save(Path dir) {
        Properties p = new Properties();
        p.setProperty("host", host);
        p.setProperty("nics", String.join(",", nics.stream().map(NicSpec::toString).toList()));
        if (netns != null) {
            p.setProperty("netns", netns);
        }
        try {
            StringWriter w = new StringWriter();
            p.store(w, "the saba agent that uses this directory");
            DurableFile.replace(dir.resolve(FILE), w.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir.resolve(FILE), e);
        }
    }

    /**
     * What an agent saved in {@code dir}, if any.
     *
     * @throws IllegalArgumentException naming the file when it is not what {@link #save} writes
     */
    public static Optional<AgentState> load(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException(f + ": cannot read it (" + e.getMessage() + ")", e);
        }
        String host = p.getProperty("host");
        String nics = p.getProperty("nics");
        if (host == null || nics == null || nics.isBlank()) {
            throw new IllegalArgumentException(f + ": needs 'host' and 'nics'");
        }
        try {
            return Optional.of(new AgentState(host, Arrays.stream(nics.split(",")).map(NicSpec::parse).toList(),
                    p.getProperty("netns")));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
        }
    }
}
