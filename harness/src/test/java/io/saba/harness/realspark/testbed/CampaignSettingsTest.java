package io.saba.harness.realspark.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.testbed.TestbedSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The campaign's controller models (issue #20's treatments): what the controller is configured with under each, and
 * that a campaign folder names them, so folders of different treatments never resume into each other while the
 * folders of earlier campaigns (the table, the default) keep their identity.
 */
class CampaignSettingsTest {
    private static CampaignSettings settings(String sensitivity, boolean controllerTable) {
        return settings(sensitivity, controllerTable, "linux");
    }

    private static CampaignSettings settings(String sensitivity, boolean controllerTable, String fabric) {
        return new CampaignSettings(4, 1, Path.of("/tmp/out"), Path.of("/tmp/table.json"), 5, 20_000_000L, "small",
                "corun", "tbc", "10.83.0", List.of("sort"), null, List.of("saba", "controller"),
                Duration.ofMinutes(30), sensitivity, controllerTable, fabric);
    }

    private static final TestbedSpec SPEC = new TestbedSpec("tbc", 5, 20_000_000L, "10.83.0");

    @Test
    void theTableTreatmentIsTheCampaignAsBefore() {
        CampaignSettings s = settings("table", true);
        String yaml = ControllerProcess.config(SPEC, s, null);
        assertTrue(yaml.contains("\ntable: /tmp/table.json\n"), yaml);
        assertTrue(yaml.contains("\nsensitivity: table\n"), yaml);
        assertFalse(yaml.contains("journal-dir"), "nothing kept between runs: " + yaml);
        assertFalse(s.learnsAcrossRuns());
        assertEquals("real-spark testbed seed=1 hosts=5 link-rate=20000000 scale=small allocation=corun c-saba=0.9 "
                + "partitions=4 executor-memory=768m workloads=sort table-sha256=ab", s.fingerprint(List.of("sort"),
                "ab"), "the fingerprint of the folders written before the treatments existed");
    }

    @Test
    void theOnlineTreatmentHasNoTableAndKeepsWhatItLearnsInItsJournal() {
        CampaignSettings s = settings("online", false);
        assertTrue(s.learnsAcrossRuns());
        String yaml = ControllerProcess.config(SPEC, s, Path.of("/tmp/out/journal"));
        assertFalse(yaml.contains("table:"), yaml);
        assertTrue(yaml.contains("\nsensitivity: online\n"), yaml);
        assertTrue(yaml.contains("\njournal-dir: /tmp/out/journal\n"), yaml);
        assertTrue(yaml.startsWith("listen: 10.83.0.1:7070\n"), yaml);
        assertTrue(s.fingerprint(List.of("sort"), "ab").endsWith(" sensitivity=online controller-table=none"));
    }

    @Test
    void theDefaultModelTreatmentIsTheTableModeWithoutATable() {
        CampaignSettings s = settings("table", false);
        assertFalse(s.learnsAcrossRuns());
        assertFalse(ControllerProcess.config(SPEC, s, null).contains("table:"));
        assertTrue(s.fingerprint(List.of("sort"), "ab").endsWith(" sensitivity=table controller-table=none"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings("learned", true)).getMessage()
                .contains("--sensitivity must be table, online or blended"));
    }

    @Test
    void theTaggedControlRunsTheSameControllerOnTheDryRunFabric() {
        CampaignSettings s = settings("table", true, "dry-run");
        assertFalse(s.enforces());
        String yaml = ControllerProcess.config(SPEC, s, null);
        assertTrue(yaml.contains("\nbackend: dry-run\n"), yaml);
        assertFalse(yaml.contains("backend-options"), yaml);
        assertTrue(yaml.contains("\ntable: /tmp/table.json\n"), "the same allocation as the Saba run's: " + yaml);
        assertTrue(s.fingerprint(List.of("sort"), "ab").endsWith("table-sha256=ab fabric=dry-run"),
                "a tagged folder never resumes into a Saba one");
        String linux = ControllerProcess.config(SPEC, settings("table", true), null);
        assertTrue(linux.contains("\nbackend: linux\nbackend-options: {testbed: tbc, c-saba: 0.9}\n"), linux);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> settings("table", true, "tc")).getMessage()
                .contains("--fabric must be linux or dry-run"));
    }
}
