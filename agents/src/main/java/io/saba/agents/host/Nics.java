package io.saba.agents.host;

import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import io.saba.proto.v1.AgentNic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The host's NICs as the agent announces them: the kernel's link speed ({@code /sys/class/net/DEV/speed}, Mbit/s;
 * none on many virtual devices, and a veth's a fixed 10 Gbit/s whatever shapes it) and the addresses {@code ip -o addr} lists. In a named network namespace (tests)
 * speeds are not read (sysfs shows the agent's own namespace).
 */
public final class Nics {
    private final CommandRunner shell;
    private final String netns;

    Nics(CommandRunner shell, String netns) {
        this.shell = shell;
        this.netns = netns;
    }

    /** Every device that is up, loopback excepted (what the agent enforces on when no --nic is given). */
    public static List<String> upDevices() {
        List<String> out = new ArrayList<>();
        try (Stream<Path> devs = Files.list(Path.of("/sys/class/net"))) {
            for (Path d : devs.sorted().toList()) {
                String name = d.getFileName().toString();
                String state = read(d.resolve("operstate"));
                if (!name.equals("lo") && ("up".equals(state) || "unknown".equals(state))) {
                    out.add(name);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /sys/class/net: " + e.getMessage(), e);
        }
        return out;
    }

    /** The kernel's link speed in bit/s, or 0 when it reports none. */
    long speedBps(String device) {
        if (netns != null) {
            return 0;
        }
        String s = read(Path.of("/sys/class/net", device, "speed"));
        try {
            long mbit = s == null ? 0 : Long.parseLong(s);
            return mbit > 0 ? mbit * 1_000_000L : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    AgentNic describe(String device, long rateBps) {
        AgentNic.Builder b = AgentNic.newBuilder().setName(device).setLinkRateBps(rateBps);
        List<String> cmd = new ArrayList<>(List.of("ip"));
        if (netns != null) {
            cmd.addAll(List.of("-n", netns));
        }
        cmd.addAll(List.of("-o", "addr", "show", "dev", device));
        CommandResult r = shell.run(cmd);
        if (r.ok()) {
            for (String line : r.stdout().split("\n")) {
                String[] f = line.trim().split("\\s+");
                for (int i = 0; i + 1 < f.length; i++) {
                    if (f[i].equals("inet") || f[i].equals("inet6")) {
                        b.addAddresses(f[i + 1].replaceAll("/.*", ""));
                    }
                }
            }
        }
        return b.build();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            return null;
        }
    }
}
