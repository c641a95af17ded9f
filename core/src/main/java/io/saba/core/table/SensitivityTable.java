package io.saba.core.table;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The sensitivity table: workload → fitted model and its provenance. Workload names are case-insensitive and
 * stored in lower case. Immutable; {@link #with} returns an updated copy.
 *
 * <p>On disk it is JSON, read and written by {@link SensitivityTableCodec}; the format is documented in
 * docs/sensitivity-table.md.
 */
public final class SensitivityTable {
    private final Map<String, TableEntry> entries;
    private final String note;

    private SensitivityTable(Map<String, TableEntry> entries, String note) {
        this.entries = Collections.unmodifiableMap(entries);
        this.note = note;
    }

    public static SensitivityTable empty() {
        return new SensitivityTable(new TreeMap<>(), null);
    }

    static SensitivityTable of(Map<String, TableEntry> entries, String note) {
        return new SensitivityTable(new TreeMap<>(entries), note);
    }

    public static String key(String workload) {
        return workload.trim().toLowerCase(Locale.ROOT);
    }

    public Optional<TableEntry> find(String workload) {
        return Optional.ofNullable(entries.get(key(workload)));
    }

    /** Entries by workload, sorted. */
    public Map<String, TableEntry> entries() {
        return entries;
    }

    /** A free-text note for readers of the file (e.g. how the table was made); may be null. */
    public String note() {
        return note;
    }

    public SensitivityTable with(TableEntry entry) {
        TreeMap<String, TableEntry> copy = new TreeMap<>(entries);
        String k = key(entry.workload());
        copy.put(k, entry.withWorkload(k));
        return new SensitivityTable(copy, note);
    }

    public SensitivityTable withNote(String newNote) {
        return new SensitivityTable(new TreeMap<>(entries), newNote);
    }
}
