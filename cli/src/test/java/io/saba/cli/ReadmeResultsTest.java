package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's results rows state what the committed runs printed, so the README cannot drift from the command:
 * each row is checked against the {@code summary.txt} of the run in {@code examples/} it quotes.
 */
class ReadmeResultsTest {
    private static final Path ROOT = Path.of("..");

    private static String row(String startsWith) throws IOException {
        List<String> rows = Files.readAllLines(ROOT.resolve("README.md")).stream()
                .filter(l -> l.startsWith("| " + startsWith)).toList();
        assertTrue(rows.size() == 1, "one README row starts with '" + startsWith + "': " + rows);
        return rows.get(0);
    }

    /** The first group of {@code regex} in {@code summary}, which must match once. */
    private static String find(String summary, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(summary);
        assertTrue(m.find(), "the summary has no line matching " + regex);
        return m.group(1);
    }

    @Test
    void theFluidFig8RowIsTheCommittedRunsSummary() throws IOException {
        String summary = Files.readString(ROOT.resolve("examples/fig8-simulated-500/summary.txt"));
        String mean = find(summary, "^mean \\(jobs\\)\\s+(\\S+)\\s");
        String slower = find(summary, "^setups slower \\(<1\\)\\s+(\\d+)\\s");
        String row = row("Fig. 8: 500-setup testbed campaign (simulated, fluid)");
        assertTrue(row.contains("| " + mean + "x, " + slower + " of 500 setups slower |"),
                "the README says " + row + " but the run printed " + mean + " and " + slower + " slower");
    }

    @Test
    void theFig8PacketRowIsTheCommittedRunsSummary() throws IOException {
        String summary = Files.readString(ROOT.resolve("examples/fig8-packet-coalesced/summary.txt"));
        String setups = find(summary, "^(\\d+) complete setups");
        String saba = find(summary, "^Saba \\(corun\\) over shared VL \\+ IB CC\\s+(\\S+ \\[\\S+ \\S+\\])$");
        String control = find(summary, "^control: 8 VLs, equal over shared VL \\+ IB CC\\s+(\\S+) \\[");
        String sabaOverControl = find(summary, "^Saba \\(corun\\) over control: 8 VLs, equal\\s+(\\S+ \\[\\S+ \\S+\\])$");
        String slower = find(summary, "^Saba \\(corun\\) over shared VL \\+ IB CC\\s+\\S+\\s+\\S+\\s+\\S+\\s+(\\d+)/");
        String row = row("Fig. 8 on the paper's fabric");
        for (String expected : List.of("Saba " + saba.replaceFirst(" ", "x "), slower + " of " + setups + " slower",
                "control " + control + "x", "Saba over the control " + sabaOverControl, setups + " of 500 setups")) {
            assertTrue(row.contains(expected), "the README row lacks '" + expected + "': " + row);
        }
    }
}
