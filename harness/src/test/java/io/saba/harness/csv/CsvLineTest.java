package io.saba.harness.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvLineTest {
    @Test
    void plainValuesAreJoinedAsTheyWere() {
        assertEquals("0,s0-j0 a name longer than twenty-four characters,0.5,,h2;h4\n",
                CsvLine.of("0", "s0-j0 a name longer than twenty-four characters", "0.5", "", "h2;h4"));
    }

    @Test
    void aValueWithACommaOrAQuoteIsQuotedAndRoundTrips() {
        List<String> row = List.of("1", "exit 1, see \"x.log\"", "");
        String line = CsvLine.of(row);
        assertEquals("1,\"exit 1, see \"\"x.log\"\"\",\n", line);
        assertEquals(row, CsvLine.values(line.strip()));
    }

    @Test
    void aTornOrBlankLineIsNoRowAndALineBreakIsRefused() {
        assertNull(CsvLine.values("1,\"exit 1, se"));
        assertNull(CsvLine.values(" "));
        assertThrows(IllegalArgumentException.class, () -> CsvLine.of("a\nb"));
    }
}
