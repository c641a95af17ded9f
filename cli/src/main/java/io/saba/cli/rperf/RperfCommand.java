package io.saba.cli.rperf;

import picocli.CommandLine.Command;

/** {@code saba rperf}: latency under mixed traffic, measured on real sockets or in the switch model. */
@Command(name = "rperf", mixinStandardHelpOptions = true,
        description = "RPerf: LSG/BSG generators over TCP, loopback-subtracted RTT, and the packet-level "
                + "switch model reproducing the RPerf paper (ISPASS 2020).",
        subcommands = {RperfServerCommand.class, RperfClientCommand.class, RperfQperfCommand.class,
                RperfModelCommand.class})
public final class RperfCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
