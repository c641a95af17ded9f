package io.saba.controller.fabric.linux;

import io.saba.wire.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.controller.shell.CommandRunner;
import io.saba.controller.shell.ProcessRunner;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saba's queues as Linux HTB classes (see the package description for the tree). Works on any egress device: a
 * software switch's port (the namespace testbed) or a host's own NIC (host-based enforcement, where each host
 * shapes what it sends; PortId(host, 0) → that host's device).
 *
 * <p>Failure handling: every port is moved by {@link TcDevice#converge}; if a command fails half-way the port is
 * converged back to the plan it had before (or its root removed, if this backend created the root in this very
 * call), and the port is reported failed with the failing command, exit code and stderr.
 *
 * <p>Pushes are serialised (synchronized): a port's commands never interleave with another push's.
 */
public final class LinuxTcBackend implements FabricBackend {
    private static final Logger log = LoggerFactory.getLogger(LinuxTcBackend.class);

    private final LinuxPortResolver resolver;
    private final DscpMap dscpMap;
    private final double cSaba;
    private final CommandRunner shell;
    private final NftDscpTagger tagger;
    private final Map<PortId, Installed> installed = new HashMap<>();

    /** What this backend put on a port: the current plan, and whether it created the root (then close removes it). */
    private record Installed(LinuxPort port, HtbPlan plan, boolean ownsRoot) {
    }

    /**
     * @param resolver which device each port is
     * @param dscpMap  level → DSCP, as the client library tags
     * @param cSaba    the most of a link Saba's queues may take together (a larger sum is rejected); the non-Saba
     *                 class gets what the queues leave
     */
    public LinuxTcBackend(LinuxPortResolver resolver, DscpMap dscpMap, double cSaba) {
        this(resolver, dscpMap, cSaba, new ProcessRunner());
    }

    public LinuxTcBackend(LinuxPortResolver resolver, DscpMap dscpMap, double cSaba, CommandRunner shell) {
        if (!(cSaba > 0 && cSaba <= 1)) {
            throw new IllegalArgumentException("C_Saba must be in (0, 1], got " + cSaba);
        }
        this.resolver = resolver;
        this.dscpMap = dscpMap;
        this.cSaba = cSaba;
        this.shell = shell;
        this.tagger = new NftDscpTagger(shell);
    }

    @Override
    public String name() {
        return "linux";
    }

    /** Host-side tagging by local port, for programs that cannot set their own TOS; removed by {@link #close}. */
    public NftDscpTagger tagger() {
        return tagger;
    }

    /** The plan currently installed on a port, if this backend manages it. */
    public synchronized Optional<HtbPlan> installedPlan(PortId port) {
        return Optional.ofNullable(installed.get(port)).map(Installed::plan);
    }

    @Override
    public synchronized ApplyResult apply(Collection<PortAllocation> changed) {
        Set<PortId> applied = new HashSet<>();
        Map<PortId, String> failed = new HashMap<>();
        for (PortAllocation a : changed) {
            String error = applyOne(a);
            if (error == null) {
                applied.add(a.port());
            } else {
                log.warn("port {} keeps its previous configuration: {}", a.port(), error);
                failed.put(a.port(), error);
            }
        }
        return new ApplyResult(applied, failed);
    }

    /** Returns null on success, the reason otherwise. */
    private String applyOne(PortAllocation a) {
        Optional<LinuxPort> resolved = resolver.resolve(a.port());
        if (resolved.isEmpty()) {
            return "no Linux device configured for port " + a.port();
        }
        LinuxPort port = resolved.get();
        HtbPlan plan;
        try {
            plan = HtbPlan.of(a, port.linkRateBps(), cSaba, dscpMap);
        } catch (IllegalArgumentException e) {
            return "rejected before touching " + port + ": " + e.getMessage();
        }
        Installed before = installed.get(a.port());
        if (before != null && before.plan().equals(plan) && before.port().equals(port)) {
            return null; // idempotent: the device already has exactly this
        }
        TcDevice dev = new TcDevice(port, shell);
        boolean createdRoot = false;
        try {
            if (!dev.hasHtbRoot()) {
                dev.installRoot(port.linkRateBps());
                createdRoot = true;
            }
            dev.converge(plan);
        } catch (RuntimeException e) {
            return e.getMessage() + rollback(dev, before, createdRoot);
        }
        boolean ownsRoot = createdRoot || (before != null && before.ownsRoot());
        installed.put(a.port(), new Installed(port, plan, ownsRoot));
        if (log.isInfoEnabled()) {
            // the shares, not just the mapping: what an operator compares with tc's counters
            StringBuilder rates = new StringBuilder(plan.nonSaba().classId() + "=" + share(plan.nonSaba(), plan));
            plan.queues().forEach(c -> rates.append(' ').append(c.classId()).append('=').append(share(c, plan)));
            log.info("port {} ({}): {} queues, DSCP→queue {}, rates {}", a.port(), port, plan.queues().size(),
                    plan.queueOfDscp(), rates);
        }
        return null;
    }

    /** Puts the device back as it was; returns "" or a note that the rollback itself failed. */
    private String rollback(TcDevice dev, Installed before, boolean createdRoot) {
        try {
            if (createdRoot) {
                dev.removeRoot();
            } else {
                dev.converge(before != null ? before.plan() : HtbPlan.baseline(dev.port().linkRateBps()));
            }
            return " (previous configuration restored)";
        } catch (RuntimeException e) {
            return " (and restoring the previous configuration failed too: " + e.getMessage() + ")";
        }
    }

    @Override
    public synchronized ApplyResult release(Set<PortId> ports) {
        Set<PortId> done = new HashSet<>();
        Map<PortId, String> failed = new HashMap<>();
        for (PortId p : ports) {
            Installed inst = installed.get(p);
            if (inst == null) {
                done.add(p); // nothing of ours there
                continue;
            }
            TcDevice dev = new TcDevice(inst.port(), shell);
            try {
                if (inst.ownsRoot()) {
                    dev.removeRoot();
                } else {
                    // Someone else's root (the testbed's plain link): leave it as we found it.
                    dev.converge(HtbPlan.baseline(inst.port().linkRateBps()));
                }
                installed.remove(p);
                done.add(p);
            } catch (RuntimeException e) {
                failed.put(p, e.getMessage());
            }
        }
        return new ApplyResult(done, failed);
    }

    @Override
    public synchronized void close() {
        ApplyResult r = release(new TreeSet<>(installed.keySet()));
        r.failed().forEach((p, why) -> log.warn("could not release {}: {}", p, why));
        tagger.close();
    }

    /** Ports currently managed, for status pages. */
    public synchronized List<PortId> managedPorts() {
        return List.copyOf(new TreeSet<>(installed.keySet()));
    }

    private static String share(HtbPlan.HtbClass c, HtbPlan plan) {
        return String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * c.rateBps() / plan.linkBps());
    }
}
