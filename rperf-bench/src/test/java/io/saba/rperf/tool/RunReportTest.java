package io.saba.rperf.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report's CSV, each figure worked out by hand (values below 2,048 ns are exact in a 3-digit histogram). */
class RunReportTest {
    private static Histogram ns(long... values) {
        Histogram h = new Histogram(3);
        for (long v : values) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void oneRowPerGeneratorAndMetricEmptyWhereAKindHasNoFigure(@TempDir Path dir) throws Exception {
        LatencyResult lsg = new LatencyResult(GeneratorSpec.lsg(64, 184), ns(1_000, 1_500, 2_000), ns(400, 400, 400),
                ns(600, 1_100, 1_600), 0);
        // 1.25 GB in one second is 10 Gb/s; a million messages in it, 1 Mpps
        BandwidthResult bsg = new BandwidthResult(GeneratorSpec.bsg(1024, 0, 8), 1_250_000_000L, 1_000_000_000L,
                1_000_000L, 0, 0);
        RunResult r = new RunResult(List.of(lsg), List.of(bsg));
        List<String> expected = List.of(
                "generator,kind,bytes,tos,metric,iterations,min_us,median_us,mean_us,p99_us,p999_us,max_us,gbps,mpps",
                "1,lsg,64,184,rtt_end_to_end,3,1.000,1.500,1.500,2.000,2.000,2.000,,",
                "1,lsg,64,184,rtt_loopback_subtracted,3,0.600,1.100,1.100,1.600,1.600,1.600,,",
                "1,lsg,64,184,loopback,3,0.400,0.400,0.400,0.400,0.400,0.400,,",
                "2,bsg,1024,0,bandwidth,1000000,,,,,,,10.0000,1.000000");
        assertEquals(expected, RunReport.csv(r));
        Path file = dir.resolve("run.csv");
        RunReport.writeCsv(r, file);
        assertEquals(String.join("\n", expected) + "\n", Files.readString(file));
    }
}
