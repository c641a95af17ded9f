package io.saba.cli;

import io.saba.agents.host.AgentSettings;
import io.saba.agents.host.AgentState;
import io.saba.agents.host.HostAgent;
import io.saba.agents.host.NicSpec;
import io.saba.agents.host.Nics;
import io.saba.agents.host.PlanApplier;
import io.saba.controller.journal.JournalLock;
import io.saba.core.alloc.PortId;
import io.saba.process.ProcessRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saba agent}: the host agent, one per host, enforcing the controller's plan ({@code backend: agents}) on
 * the host's own NICs; {@code saba agent restore} gives the NICs back by hand.
 */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = "Enforce the controller's plan on this host's NICs (the controller runs backend: agents).",
        subcommands = AgentCommand.Restore.class)
final class AgentCommand implements Callable<Integer> {
    static final String DEFAULT_STATE_DIR = "/var/lib/saba-agent";

    @Spec
    CommandSpec spec;

    @Option(names = "--controller", split = ",", paramLabel = "HOST:PORT",
            description = "The controller's gRPC address (required); several (comma-separated) for a controller "
                    + "group.")
    List<String> controllers = new ArrayList<>();

    @Option(names = "--host", paramLabel = "NAME",
            description = "This host's name in the controller's topology (default: the machine's host name).")
    String host;

    @Option(names = "--nic", paramLabel = "[PORT=]DEV[@RATE]",
            description = "A NIC to enforce on (repeatable): PORT is the host's port in the topology (one NIC takes "
                    + "every port), RATE overrides the kernel's link speed. Default: every device that is up, "
                    + "loopback excepted.")
    List<String> nics = new ArrayList<>();

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "A file holding this host's agent token (the controller's agent-tokens).")
    Path tokenFile;

    @Option(names = "--tls-trust", paramLabel = "PEM",
            description = "Certificate(s) to trust for a controller with TLS (default: plaintext).")
    Path tlsTrust;

    @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = DEFAULT_STATE_DIR,
            description = "Where the NICs' original configurations are kept (default: ${DEFAULT-VALUE}).")
    Path stateDir;

    @Option(names = "--lease-seconds", paramLabel = "S", defaultValue = "60",
            description = "How long the NICs keep the last plan while no controller is reachable, before they are "
                    + "restored (default: ${DEFAULT-VALUE}).")
    long leaseSeconds;

    @Option(names = "--netns", paramLabel = "NAME",
            description = "The network namespace the NICs are in (default: the agent's own).")
    String netns;

    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        if (controllers.isEmpty()) {
            throw new IllegalArgumentException("--controller HOST:PORT is required");
        }
        String name = host != null ? host : InetAddress.getLocalHost().getHostName();
        List<NicSpec> specs = new ArrayList<>();
        (nics.isEmpty() ? netns == null ? Nics.upDevices() : List.<String>of() : nics)
                .forEach(n -> specs.add(NicSpec.parse(n)));
        String token = null;
        if (tokenFile != null) {
            try {
                token = Files.readString(tokenFile).strip();
            } catch (IOException e) {
                throw new IllegalArgumentException("--token-file " + tokenFile + ": cannot read it (" + e.getMessage()
                        + ")", e);
            }
            if (token.isEmpty()) {
                throw new IllegalArgumentException("--token-file " + tokenFile + ": the file is empty");
            }
        }
        AgentSettings settings = new AgentSettings(controllers, name, specs, token, stateDir,
                Duration.ofSeconds(leaseSeconds), netns, tlsTrust);
        HostAgent agent = HostAgent.start(settings, new ProcessRunner());
        Thread hook = new Thread(() -> {
            agent.close();
            spec.commandLine().getOut().println("saba agent: stopped; the NICs of " + name + " are restored");
            spec.commandLine().getOut().flush();
            stopped.countDown();
        }, "saba-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        spec.commandLine().getOut().printf("saba agent: host %s, NICs %s, controllers %s%n", name, specs, controllers);
        spec.commandLine().getOut().flush();
        stopped.await();
        return 0;
    }

    /** {@code saba agent restore}. */
    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = "Give this host's NICs back: remove what an agent that did not stop cleanly left (refused "
                    + "while an agent holds the state directory). Exit 1 if a NIC could not be restored.")
    static final class Restore implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--state-dir", paramLabel = "DIR", defaultValue = DEFAULT_STATE_DIR,
                description = "The agent's state directory (default: ${DEFAULT-VALUE}).")
        Path stateDir;

        @Option(names = "--host", paramLabel = "NAME",
                description = "The host name the agent ran as (default: the machine's host name).")
        String host;

        @Option(names = "--nic", paramLabel = "[PORT=]DEV[@RATE]",
                description = "The agent's NICs, as it was started (default: those the state directory names).")
        List<String> nics = new ArrayList<>();

        @Option(names = "--netns", paramLabel = "NAME", description = "The network namespace the NICs are in.")
        String netns;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            if (!Files.isDirectory(stateDir)) {
                throw new IllegalArgumentException("--state-dir " + stateDir + ": no such directory");
            }
            Optional<AgentState> saved = AgentState.load(stateDir);
            String name = host != null ? host : saved.map(AgentState::host).orElse(InetAddress.getLocalHost()
                    .getHostName());
            List<NicSpec> specs = !nics.isEmpty() ? nics.stream().map(NicSpec::parse).toList()
                    : saved.map(AgentState::nics).orElseThrow(() -> new IllegalArgumentException("--state-dir "
                    + stateDir + " names no NICs (no " + AgentState.FILE + "); give --nic"));
            String ns = netns != null ? netns : saved.map(AgentState::netns).orElse(null);
            try (JournalLock lock = HostAgent.lockStateDir(stateDir);
                 PlanApplier applier = new PlanApplier(name, specs, ns, stateDir, new ProcessRunner())) {
                Map<PortId, String> failed = new TreeMap<>(applier.restore());
                failed.forEach((p, why) -> out.println(p + ": NOT restored: " + why));
                out.println(failed.isEmpty() ? "saba agent restore: the NICs of " + name + " hold nothing of Saba's"
                        : "saba agent restore: " + failed.size() + " port(s) not restored");
                out.flush();
                return failed.isEmpty() ? 0 : 1;
            }
        }
    }
}
