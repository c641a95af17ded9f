package io.saba.harness.hibench;

import io.saba.core.table.WorkloadNames;
import java.util.ArrayList;
import java.util.List;

/**
 * HiBench's report/hibench.report: a header line ({@code Type Date Time Input_data_size Duration(s)
 * Throughput(bytes/s) Throughput/node}) and one whitespace-separated line per run. Header lines may repeat
 * (HiBench writes one per new file; concatenated reports carry several).
 */
public final class HibenchReportReader {
    private HibenchReportReader() {
    }

    /** One run. */
    public record Line(String type, String date, String time, long inputBytes, double seconds, long throughput,
                       long throughputPerNode) {
        /** The sensitivity-table key of the workload this HiBench type runs, e.g. ScalaSparkTerasort → sort. */
        public String workload() {
            return workloadOf(type);
        }
    }

    /** @param source names the input in errors (file path) */
    public static List<Line> parse(String text, String source) {
        List<Line> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.isEmpty() || l.startsWith("Type")) {
                continue;
            }
            String[] f = l.split("\\s+");
            if (f.length != 7) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": expected 7 columns (Type Date Time "
                        + "Input_data_size Duration(s) Throughput(bytes/s) Throughput/node), got " + f.length + ": " + l);
            }
            try {
                double seconds = Double.parseDouble(f[4]);
                if (!(seconds > 0)) {
                    throw new NumberFormatException("duration must be > 0");
                }
                out.add(new Line(f[0], f[1], f[2], Long.parseLong(f[3]), seconds, Long.parseLong(f[5]),
                        Long.parseLong(f[6])));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + ":" + (i + 1) + ": bad number (" + e.getMessage() + "): "
                        + l);
            }
        }
        return out;
    }

    /** The sensitivity-table key of the workload a HiBench type runs ({@link WorkloadNames#ofHibenchType}). */
    public static String workloadOf(String type) {
        return WorkloadNames.ofHibenchType(type);
    }
}
