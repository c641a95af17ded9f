package io.saba.controller.fabric.infiniband;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The child process behind {@link SmpAgent}: opens libibmad once, then answers one request per line on stdin.
 * <pre>
 * GET lid attribute modifier            → OK hex64 | ERR message
 * SET lid attribute modifier hex64      → OK hex64 | ERR message
 * </pre>
 * The first line it prints is {@code READY} or {@code ERR why}. Numbers are decimal. Nothing else is printed on
 * stdout.
 */
public final class SmpAgentMain {
    private SmpAgentMain() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.US_ASCII);
        System.setOut(System.err); // a stray print must never corrupt the protocol
        String device = args.length > 0 && !args[0].equals("-") ? args[0] : null;
        int devicePort = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int timeout = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        MadSmp smp;
        try {
            smp = new MadSmp(device, devicePort, timeout);
        } catch (RuntimeException e) {
            out.println("ERR " + oneLine(e.getMessage()));
            return;
        }
        out.println("READY");
        HexFormat hex = HexFormat.of();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            try {
                int lid = Integer.parseInt(f[1]);
                int attr = Integer.parseInt(f[2]);
                int mod = Integer.parseInt(f[3]);
                byte[] r = switch (f[0]) {
                    case "GET" -> smp.get(lid, attr, mod);
                    case "SET" -> smp.set(lid, attr, mod, hex.parseHex(f[4]));
                    default -> throw new IllegalArgumentException("unknown request " + f[0]);
                };
                out.println("OK " + hex.formatHex(r));
            } catch (RuntimeException e) {
                out.println("ERR " + oneLine(String.valueOf(e.getMessage())));
            }
        }
        smp.close();
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }
}
