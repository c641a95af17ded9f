package io.saba.cli;

import io.saba.core.files.DurableFile;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A sensitivity table on disk, read and written the one way the commands that update tables share ({@code saba
 * fit}, {@code saba profile}): a missing file is an empty table, and a write replaces the file atomically (a
 * temporary file beside it, then a rename), so a reader, or a controller reloading it, never sees half a table.
 */
final class TableFile {
    private TableFile() {
    }

    /** The table in {@code file}, or an empty one when there is no file yet. */
    static SensitivityTable readOrEmpty(Path file) throws IOException {
        return Files.exists(file) ? SensitivityTableCodec.parse(Files.readString(file), file.toString())
                : SensitivityTable.empty();
    }

    static void write(Path file, SensitivityTable table) throws IOException {
        DurableFile.replace(file, SensitivityTableCodec.toJson(table).getBytes(StandardCharsets.UTF_8));
    }
}
