package io.saba.core.files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurableFileTest {
    @Test
    void replacesTheWholeFileAndLeavesNoTemporaryBehind(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("state/nested/originals.json");
        DurableFile.replace(f, "a much longer first version".getBytes(StandardCharsets.UTF_8));
        DurableFile.replace(f, "short".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals("short".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(f));
        try (var files = Files.list(f.getParent())) {
            assertEquals(List.of(f), files.toList());
        }
    }

    @Test
    void aFailedWriteLeavesTheOldContent(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("agent.properties");
        DurableFile.replace(f, "old".getBytes(StandardCharsets.UTF_8));
        Files.createDirectory(dir.resolve("agent.properties.tmp")); // the temporary cannot be opened as a file
        assertThrows(IOException.class, () -> DurableFile.replace(f, "new".getBytes(StandardCharsets.UTF_8)));
        assertEquals("old", Files.readString(f));
        assertFalse(Files.isRegularFile(dir.resolve("agent.properties.tmp")));
    }
}
