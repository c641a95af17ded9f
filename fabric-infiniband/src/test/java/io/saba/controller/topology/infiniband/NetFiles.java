package io.saba.controller.topology.infiniband;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** ibsim net files: the examples Debian ships, and a two-level fat tree written here. */
public final class NetFiles {
    public static final Path EXAMPLES = Path.of("/usr/share/doc/ibsim-utils/net-examples");

    private NetFiles() {
    }

    /**
     * A two-level fat tree: {@code leaves} leaf switches with {@code hostsPerLeaf} hosts each, every leaf cabled
     * once to each of {@code spines} spine switches. Leaf ports 1..h go to hosts, h+1..h+s to spines; spine port i
     * goes to leaf i. Hosts are "h01", "h02", …; switches "leaf1…", "spine1…".
     */
    public static String fatTree(int spines, int leaves, int hostsPerLeaf) {
        StringBuilder b = new StringBuilder("# two-level fat tree written by Saba's tests\n\n");
        int leafPorts = hostsPerLeaf + spines;
        for (int l = 1; l <= leaves; l++) {
            b.append("Switch\t").append(leafPorts).append(" \"leaf").append(l).append("\"\n");
            for (int h = 1; h <= hostsPerLeaf; h++) {
                b.append('[').append(h).append("]\t\"").append(host(l, h, hostsPerLeaf)).append("\"[1]\n");
            }
            for (int s = 1; s <= spines; s++) {
                b.append('[').append(hostsPerLeaf + s).append("]\t\"spine").append(s).append("\"[").append(l)
                        .append("]\n");
            }
            b.append('\n');
        }
        for (int s = 1; s <= spines; s++) {
            b.append("Switch\t").append(leaves).append(" \"spine").append(s).append("\"\n");
            for (int l = 1; l <= leaves; l++) {
                b.append('[').append(l).append("]\t\"leaf").append(l).append("\"[").append(hostsPerLeaf + s)
                        .append("]\n");
            }
            b.append('\n');
        }
        for (int l = 1; l <= leaves; l++) {
            for (int h = 1; h <= hostsPerLeaf; h++) {
                b.append("Hca\t1 \"").append(host(l, h, hostsPerLeaf)).append("\"\n[1]\t\"leaf").append(l)
                        .append("\"[").append(h).append("]\n\n");
            }
        }
        return b.toString();
    }

    static String host(int leaf, int h, int hostsPerLeaf) {
        return String.format("h%02d", (leaf - 1) * hostsPerLeaf + h);
    }

    public static Path write(Path dir, String name, String text) {
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
