package io.saba.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.controller.StartupException;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.controller.journal.JournalLock;
import io.saba.controller.server.ControllerConfig;
import io.saba.core.alloc.PortId;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code saba fabric status|restore}: what a controller that did not stop cleanly (killed, crashed, its machine
 * lost) left on the fabric, and putting it back by hand. The ports' originals come from the file the controller
 * keeps beside its journal ({@code fabric-originals.json} in {@code journal-dir}); Linux ports are also recognised
 * by Saba's own classes and filters.
 */
@Command(name = "fabric", mixinStandardHelpOptions = true,
        description = "What a controller that did not stop cleanly left on the fabric, and putting it back.",
        subcommands = {FabricCommand.Status.class, FabricCommand.Restore.class})
final class FabricCommand {
    /** Where the fabric and its saved originals are: a controller's configuration, or flags. */
    static final class Target {
        @Option(names = "--config", paramLabel = "FILE",
                description = "The controller's configuration: its backend, backend-options and journal-dir.")
        Path config;

        @Option(names = "--fabric", paramLabel = "NAME", description = "Fabric backend (overrides 'backend').")
        String fabric;

        @Option(names = "--ibsim", paramLabel = "SOCKET", description = "An ibsim subnet instead of a real HCA.")
        String ibsim;

        @Option(names = "--journal-dir", paramLabel = "DIR",
                description = "Where the controller kept its journal and the ports' originals (overrides 'journal-dir').")
        Path journalDir;

        /** The backend, and the journal directory (null when none is configured). */
        record Opened(FabricBackend backend, Path journalDir) {
        }

        Opened open() throws java.io.IOException {
            if (config == null && fabric == null) {
                throw new IllegalArgumentException("--config FILE or --fabric NAME is required");
            }
            ObjectNode root = config != null ? ControllerConfig.read(config) : JsonNodeFactory.instance.objectNode();
            Path base = config != null ? config.toAbsolutePath().getParent() : Path.of("").toAbsolutePath();
            if (fabric != null) {
                root.put("backend", fabric);
            }
            if (ibsim != null) {
                JsonNode opts = root.path("backend-options");
                (opts.isObject() ? (ObjectNode) opts : root.putObject("backend-options")).put("ibsim", ibsim);
            }
            if (journalDir != null) {
                root.put("journal-dir", journalDir.toAbsolutePath().toString());
            }
            return new Opened(ControllerConfig.backend(root), ControllerConfig.journalDir(root, base));
        }
    }

    /** {@code saba fabric status}. */
    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "List the ports Saba left configured (or has a saved original for) and what they hold.")
    static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Target target;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Target.Opened t = target.open();
            try (FabricBackend backend = t.backend()) {
                if (t.journalDir() == null) {
                    out.println("no journal-dir: no saved originals; only what Saba's configuration looks like is "
                            + "recognised (Linux ports)");
                } else {
                    try (JournalLock free = JournalLock.acquire(t.journalDir())) {
                        backend.keepOriginalsIn(PortOriginals.in(t.journalDir()));
                    } catch (StartupException running) {
                        out.println("note: " + running.getMessage().replaceFirst(";.*", "")
                                + ": ports below may be its live configuration");
                        backend.keepOriginalsIn(PortOriginals.in(t.journalDir()));
                    }
                }
                Map<PortId, String> left = new TreeMap<>(backend.leftovers());
                if (left.isEmpty()) {
                    out.println("no port holds anything Saba left (backend " + backend.name() + ")");
                }
                left.forEach((p, what) -> out.println(p + ": " + what));
            }
            out.flush();
            return 0;
        }
    }

    /** {@code saba fabric restore}. */
    @Command(name = "restore", mixinStandardHelpOptions = true,
            description = "Put every port Saba left configured back to its saved original (refused while a "
                    + "controller holds the journal directory). Exit 1 if a port could not be restored.")
    static final class Restore implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Target target;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            Target.Opened t = target.open();
            // the lock first: restoring under a running controller would undo what it is programming
            try (JournalLock lock = t.journalDir() == null ? null : JournalLock.acquire(t.journalDir());
                 FabricBackend backend = t.backend()) {
                if (t.journalDir() != null) {
                    backend.keepOriginalsIn(PortOriginals.in(t.journalDir()));
                }
                ApplyResult r = backend.restoreLeftovers();
                new java.util.TreeSet<>(r.applied()).forEach(p -> out.println(p + ": restored"));
                new TreeMap<>(r.failed()).forEach((p, why) -> out.println(p + ": NOT restored: " + why));
                if (r.applied().isEmpty() && r.ok()) {
                    out.println("nothing to restore (backend " + backend.name() + ")");
                }
                out.flush();
                return r.ok() ? 0 : 1;
            }
        }
    }
}
