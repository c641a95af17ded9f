package io.saba.controller.server;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.journal.Journal;
import io.saba.controller.log.LogRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which sensitivity table a lone controller starts with, said on its status and, when it is not what the operator
 * may expect, warned about: none at all (no differentiation), or a table saved by ReloadTable that differs from the
 * configured file (the journal's wins, so an edited file is not in force until it is reloaded).
 */
final class TableInForce {
    /** The embedded controller's logger: these lines are its own, and log configurations select them by its name. */
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedController.class);

    private TableInForce() {
    }

    /**
     * @param kept    the table the controller's log carries, or null
     * @param journal where it was kept, or null when in memory
     */
    static String describe(Settings s, LogRequest.Table kept, Journal journal) {
        String file = s.tableFile == null ? null : s.tableFile.toString();
        if (kept != null) {
            String where = journal != null ? journal.file().toString() : "memory";
            String saved = "saved by ReloadTable in " + where + " (" + kept.models().size() + " workloads)";
            if (file != null && !LogRequest.Table.of(s.table).equals(kept)) {
                LOG.warn("the sensitivity table saved by ReloadTable in {} is in force, not the configured table file "
                        + "{}, which differs; a ReloadTable without JSON puts the file in force", where, file);
                return saved + "; the configured file " + file + " differs and is not in force";
            }
            return saved + (file == null ? "" : ", the same as the configured file " + file);
        }
        if (s.table.models().isEmpty() && s.sensitivity != SensitivityMode.TABLE) {
            LOG.info("no sensitivity table (no 'table:' configured): every workload starts from the default model "
                    + "and gets its own once its applications report stages (sensitivity: {})", s.sensitivity.label());
            return "none: every workload starts from the default model and learns its own (sensitivity: "
                    + s.sensitivity.label() + ")";
        }
        if (s.table.models().isEmpty()) {
            LOG.warn("no sensitivity table (no 'table:' configured): every application gets the default model, so "
                    + "all share one level and equal weights; Saba differentiates nothing");
            return "none: every workload gets the default model (one level, equal shares)";
        }
        return (file == null ? "given at start" : "the configured file " + file) + " (" + s.table.size()
                + " workloads)";
    }

    /** The configured table file's JSON, which a ReloadTable without inline JSON puts in force. */
    static String configured(Path tableFile) {
        if (tableFile == null) {
            throw new IllegalArgumentException("no table_json given and no table file configured");
        }
        try {
            return Files.readString(tableFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the configured table " + tableFile, e);
        }
    }
}
