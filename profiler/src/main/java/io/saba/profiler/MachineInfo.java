package io.saba.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** One line about the machine a profile ran on: CPU model, cores, memory, kernel, Java. */
public final class MachineInfo {
    private MachineInfo() {
    }

    public static String describe() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(cpu);
        } catch (IOException e) {
            // not Linux: keep "unknown CPU"
        }
        long memGb = -1;
        try {
            memGb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", "")) / 1024 / 1024).findFirst().orElse(-1L);
        } catch (IOException | NumberFormatException e) {
            // unknown
        }
        return String.format(Locale.ROOT, "%s, %d cores, %s GB RAM, %s %s, Java %s", cpu,
                Runtime.getRuntime().availableProcessors(), memGb < 0 ? "?" : Long.toString(memGb),
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("java.version"));
    }
}
