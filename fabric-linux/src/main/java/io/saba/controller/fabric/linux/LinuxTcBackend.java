package io.saba.controller.fabric.linux;

import io.saba.wire.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.PortOriginals;
import io.saba.process.CommandRunner;
import io.saba.process.ProcessRunner;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saba's queues as Linux HTB classes (see the package description for the tree). Works on any egress device: a
 * software switch's port (the namespace testbed) or a host's own NIC (host-based enforcement, where each host
 * shapes what it sends; PortId(host, 0) → that host's device).
 *
 * <p>Speed: a push runs one {@code tc -batch} process per network namespace, holding every changed port of that
 * namespace, and the namespaces in parallel. The commands are computed from what this backend knows is on each
 * device (the plan it installed last), so nothing is read before a change; a device is read only the first time
 * the backend touches it, and once more after the push that created its IPv6 filters, whose hash table the kernel
 * numbers (see {@link DscpFilters}).
 *
 * <p>Failure handling: if a namespace's batch fails, each of its ports is redone on its own from a fresh read of
 * the device; a port whose own batch fails is converged back to the plan it had before (or its root removed, if
 * this backend created the root in this very call), and is reported failed with the failing command and what tc
 * said.
 *
 * <p>After a crash: before its first change to a port the backend saves in {@link PortOriginals} whether the
 * device had an HTB root (a host's NIC does not; the testbed's plain link does), so the next controller (or
 * {@code saba fabric restore}) knows to delete a root Saba created rather than keep it. Saba's own parts are
 * recognisable on any device without a saved record: queue classes 1:20–1:3f with leaf FIFOs 20:–3f:, and u32
 * filters at preferences {@value DscpFilters#V4_PRIO} (IPv4) and {@value DscpFilters#V6_PRIO} (IPv6) on parent 1:;
 * {@link #restoreLeftovers} removes them.
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
    private final boolean countQueues;
    private final double bufferSeconds;
    private final TcClassStats classStats; // null when counting is off
    private final ExecutorService namespaces = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "saba-tc");
        t.setDaemon(true);
        return t;
    });
    private final Map<PortId, Installed> installed = new HashMap<>();
    /** Saved per port before the first change: did the device have an HTB root then. */
    private static final String ROOT_FOUND = "htb-root-found";
    private static final String NO_ROOT = "no-root";
    private PortOriginals originals = PortOriginals.inMemory();
    /** What is on each device this backend has touched (absent: unknown, read before the next change). */
    private final Map<LinuxPort, TcDevice.State> devices = new ConcurrentHashMap<>();

    /** What this backend put on a port: the current plan, and whether it created the root (then close removes it). */
    private record Installed(LinuxPort port, HtbPlan plan, boolean ownsRoot) {
    }

    /** One port's change within a push: where, to what, and what to fall back to. */
    private record Change(PortId id, LinuxPort port, HtbPlan plan, Installed before) {
    }

    /** How a change went: {@code error} null for success; {@code rootWasThere} tells who owns the root. */
    private record Outcome(String error, boolean rootWasThere) {
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
        this(resolver, dscpMap, cSaba, shell, true);
    }

    /** @param countQueues whether {@link #queueBytes} reads the devices' counters (else it counts nothing) */
    public LinuxTcBackend(LinuxPortResolver resolver, DscpMap dscpMap, double cSaba, CommandRunner shell,
                          boolean countQueues) {
        this(resolver, dscpMap, cSaba, shell, countQueues, HtbPlan.DEFAULT_BUFFER_SECONDS);
    }

    /** @param bufferSeconds what each queue's FIFO holds, as time of the port's link ({@link HtbPlan#leafLimit}) */
    public LinuxTcBackend(LinuxPortResolver resolver, DscpMap dscpMap, double cSaba, CommandRunner shell,
                          boolean countQueues, double bufferSeconds) {
        if (!(cSaba > 0 && cSaba <= 1)) {
            throw new IllegalArgumentException("C_Saba must be in (0, 1], got " + cSaba);
        }
        this.resolver = resolver;
        this.dscpMap = dscpMap;
        this.cSaba = cSaba;
        this.shell = shell;
        this.tagger = new NftDscpTagger(shell);
        this.countQueues = countQueues;
        this.bufferSeconds = HtbPlan.checkBuffer(bufferSeconds, "the queue buffer");
        this.classStats = countQueues ? new TcClassStats() : null;
    }

    @Override
    public String name() {
        return "linux";
    }

    /** What each queue's FIFO holds, as time of its port's link. */
    public double bufferSeconds() {
        return bufferSeconds;
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
        Set<PortId> applied = new TreeSet<>();
        Map<PortId, String> failed = new HashMap<>();
        List<Change> work = new ArrayList<>();
        for (PortAllocation a : changed) {
            Optional<LinuxPort> resolved = resolver.resolve(a.port());
            if (resolved.isEmpty()) {
                failed.put(a.port(), "no Linux device configured for port " + a.port());
                continue;
            }
            LinuxPort port = resolved.get();
            try {
                HtbPlan plan = HtbPlan.of(a, port.linkRateBps(), cSaba, dscpMap, bufferSeconds);
                Installed before = installed.get(a.port());
                if (before != null && before.plan().equals(plan) && before.port().equals(port)) {
                    applied.add(a.port()); // idempotent: the device already has exactly this
                } else {
                    if (before == null) {
                        saveOriginal(a.port(), port);
                    }
                    work.add(new Change(a.port(), port, plan, before));
                }
            } catch (IllegalArgumentException e) {
                failed.put(a.port(), "rejected before touching " + port + ": " + e.getMessage());
            } catch (RuntimeException e) {
                failed.put(a.port(), "cannot read " + port + " before changing it: " + e.getMessage());
            }
        }
        inParallelByNamespace(work, this::applyAll).forEach((c, outcome) -> {
            if (outcome.error() == null) {
                boolean ownsRoot = !outcome.rootWasThere() || (c.before() != null ? c.before().ownsRoot()
                        : originals.get(name(), c.id()).map(NO_ROOT::equals).orElse(false));
                installed.put(c.id(), new Installed(c.port(), c.plan(), ownsRoot));
                applied.add(c.id());
                logRates(c);
            } else {
                log.warn("port {} keeps its previous configuration: {}", c.id(), outcome.error());
                failed.put(c.id(), outcome.error());
            }
        });
        return new ApplyResult(applied, failed);
    }

    /**
     * One namespace's changes in one batch; when it fails, port by port from a fresh read. Runs on a worker thread:
     * touches only {@link #devices}; the caller records the outcomes.
     */
    private Map<Change, Outcome> applyAll(List<Change> changes) {
        Map<Change, Outcome> out = new LinkedHashMap<>();
        List<String> lines = new ArrayList<>();
        Map<Change, TcDevice.State> before = new HashMap<>();
        try {
            for (Change c : changes) {
                TcDevice.State from = known(c.port());
                before.put(c, from);
                lines.addAll(TcDevice.converge(c.port().device(), from, c.plan()));
            }
        } catch (RuntimeException readFailed) {
            lines = null;
        }
        if (lines != null && TcBatch.run(shell, changes.get(0).port().namespace(), lines) == null) {
            for (Change c : changes) {
                remember(c.port(), TcDevice.State.after(before.get(c), c.plan()));
                out.put(c, new Outcome(null, before.get(c).htbRoot()));
            }
            return out;
        }
        for (Change c : changes) {
            TcDevice.State from = before.get(c);
            out.put(c, applyAlone(c, from == null ? null : from.htbRoot()));
        }
        return out;
    }

    /**
     * The careful path for one port: read the device (a failed batch may have applied part of it), converge it,
     * roll back on failure.
     *
     * @param rootBefore whether the device had an HTB root before this push, or null if that is not known
     */
    private Outcome applyAlone(Change c, Boolean rootBefore) {
        devices.remove(c.port());
        TcDevice.State from;
        try {
            from = known(c.port());
        } catch (RuntimeException e) {
            return new Outcome("cannot read " + c.port() + ": " + e.getMessage(), true);
        }
        boolean rootWasThere = rootBefore != null ? rootBefore : from.htbRoot();
        String error = TcBatch.run(shell, c.port().namespace(), TcDevice.converge(c.port().device(), from,
                c.plan()));
        if (error == null) {
            remember(c.port(), TcDevice.State.after(from, c.plan()));
            return new Outcome(null, rootWasThere);
        }
        devices.remove(c.port());
        return new Outcome(error + rollback(c, !rootWasThere), rootWasThere);
    }

    /** Puts the device back as it was; returns a note saying whether that worked. */
    private String rollback(Change c, boolean createdRoot) {
        LinuxPort port = c.port();
        try {
            List<String> lines = createdRoot ? TcDevice.removeRoot(port.device())
                    : TcDevice.converge(port.device(), TcDevice.State.read(port, shell),
                    c.before() != null ? c.before().plan() : HtbPlan.baseline(port.linkRateBps()));
            String error = TcBatch.run(shell, port.namespace(), lines);
            return error == null ? " (previous configuration restored)"
                    : " (and restoring the previous configuration failed too: " + error + ")";
        } catch (RuntimeException e) {
            return " (and restoring the previous configuration failed too: " + e.getMessage() + ")";
        } finally {
            devices.remove(port);
        }
    }

    /**
     * Saves whether the device had an HTB root before Saba's first change, unless a controller before this one saved
     * it already (then the root there now may be that controller's).
     */
    private void saveOriginal(PortId id, LinuxPort port) {
        if (originals.get(name(), id).isEmpty()) {
            originals.put(name(), id, known(port).htbRoot() ? ROOT_FOUND : NO_ROOT);
        }
    }

    @Override
    public synchronized void keepOriginalsIn(PortOriginals store) {
        originals = store;
    }

    /**
     * Read as {@code tc -s class show} on the port's device prints them, through a tc kept running per namespace
     * ({@link TcClassStats}), outside this backend's lock (a push is not held up by it); the counters of a class
     * start at 0 when a push creates it.
     */
    @Override
    public boolean countsQueueBytes() {
        return countQueues;
    }

    @Override
    public Map<Integer, Long> queueBytes(PortId id) {
        LinuxPort port;
        synchronized (this) {
            Installed i = installed.get(id);
            if (i == null || !countQueues) {
                return Map.of();
            }
            port = i.port();
        }
        try {
            return TcDevice.queueBytes(classStats.show(port));
        } catch (RuntimeException e) {
            log.debug("no counters of {}: {}", port, e.getMessage());
            return Map.of(); // tc could not answer (a namespace deleted): nothing to count this time
        }
    }

    /** Ports not managed now that have a saved original or Saba's parts on them (listable ports only). */
    @Override
    public synchronized Map<PortId, String> leftovers() {
        Map<PortId, String> out = new java.util.TreeMap<>();
        for (PortId id : unmanagedCandidates()) {
            Optional<LinuxPort> port = resolver.resolve(id);
            if (port.isEmpty()) {
                out.put(id, "has a saved original but no device is configured for it");
                continue;
            }
            try {
                TcDevice.State s = TcDevice.State.read(port.get(), shell);
                boolean rootToDelete = s.htbRoot() && originals.get(name(), id).map(NO_ROOT::equals).orElse(false);
                if (s.hasSabaParts() || rootToDelete) {
                    out.put(id, port.get() + ": Saba's queue classes " + s.sabaClasses() + ", "
                            + s.filters().v4Nodes().size() + " IPv4 and " + s.filters().v6Nodes().size()
                            + " IPv6 DSCP filters" + (rootToDelete ? "; the HTB root is Saba's" : ""));
                }
            } catch (RuntimeException e) {
                out.put(id, "cannot read " + port.get() + ": " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * Every port not managed now that has Saba's parts on it, or a root Saba created: the root deleted where the
     * saved original says there was none, else Saba's classes and filters removed (the plain link stays).
     */
    @Override
    public synchronized ApplyResult restoreLeftovers() {
        Set<PortId> done = new TreeSet<>();
        Map<PortId, String> failed = new HashMap<>();
        for (PortId id : unmanagedCandidates()) {
            Optional<LinuxPort> resolved = resolver.resolve(id);
            if (resolved.isEmpty()) {
                failed.put(id, "no Linux device configured for port " + id);
                continue;
            }
            LinuxPort port = resolved.get();
            try {
                TcDevice.State s = TcDevice.State.read(port, shell);
                boolean createdRoot = originals.get(name(), id).map(NO_ROOT::equals).orElse(false);
                List<String> lines = !s.htbRoot() ? List.of() : createdRoot ? TcDevice.removeRoot(port.device())
                        : s.hasSabaParts() ? TcDevice.converge(port.device(), s, HtbPlan.baseline(port.linkRateBps()))
                        : List.of();
                String error = lines.isEmpty() ? null : TcBatch.run(shell, port.namespace(), lines);
                if (error != null) {
                    failed.put(id, error);
                    continue;
                }
                originals.remove(name(), id);
                devices.remove(port);
                if (!lines.isEmpty()) {
                    done.add(id);
                    log.info("port {} ({}): Saba's configuration removed{}", id, port,
                            createdRoot ? " with the HTB root it created" : "");
                }
            } catch (RuntimeException e) {
                failed.put(id, "cannot read " + port + ": " + e.getMessage());
            }
        }
        return new ApplyResult(done, failed);
    }

    private Set<PortId> unmanagedCandidates() {
        Set<PortId> ids = new TreeSet<>(resolver.ports());
        ids.addAll(originals.all(name()).keySet());
        ids.removeAll(installed.keySet());
        return ids;
    }

    private TcDevice.State known(LinuxPort port) {
        return devices.computeIfAbsent(port, p -> TcDevice.State.read(p, shell));
    }

    /** Keeps what a device holds now, unless part of it can only be learnt by reading the device. */
    private void remember(LinuxPort port, TcDevice.State now) {
        if (now.filters().known()) {
            devices.put(port, now);
        } else {
            devices.remove(port);
        }
    }

    @Override
    public synchronized ApplyResult release(Set<PortId> ports) {
        Set<PortId> done = new TreeSet<>();
        Map<PortId, String> failed = new HashMap<>();
        Map<LinuxPort, PortId> ids = new HashMap<>();
        Map<String, List<LinuxPort>> byNamespace = new LinkedHashMap<>();
        for (PortId p : ports) {
            Installed inst = installed.get(p);
            if (inst == null) {
                done.add(p); // nothing of ours there
            } else {
                ids.put(inst.port(), p);
                byNamespace.computeIfAbsent(Objects.toString(inst.port().namespace(), ""), k -> new ArrayList<>())
                        .add(inst.port());
            }
        }
        for (List<LinuxPort> group : byNamespace.values()) {
            for (LinuxPort port : group) {
                PortId p = ids.get(port);
                String error = TcBatch.run(shell, port.namespace(), releaseLines(installed.get(p)));
                if (error == null) {
                    installed.remove(p);
                    originals.remove(name(), p);
                    done.add(p);
                } else {
                    devices.remove(port);
                    failed.put(p, error);
                }
            }
        }
        return new ApplyResult(done, failed);
    }

    /**
     * A root this backend created is deleted (the kernel's default comes back); someone else's (the testbed's
     * plain link) is left as it was found.
     */
    private List<String> releaseLines(Installed inst) {
        LinuxPort port = inst.port();
        if (inst.ownsRoot()) {
            devices.put(port, TcDevice.State.NONE);
            return TcDevice.removeRoot(port.device());
        }
        HtbPlan plain = HtbPlan.baseline(port.linkRateBps());
        TcDevice.State from = known(port);
        List<String> lines = TcDevice.converge(port.device(), from, plain);
        remember(port, TcDevice.State.after(from, plain));
        return lines;
    }

    @Override
    public synchronized void close() {
        ApplyResult r = release(new TreeSet<>(installed.keySet()));
        r.failed().forEach((p, why) -> log.warn("could not release {}: {}", p, why));
        tagger.close();
        namespaces.shutdown();
        if (classStats != null) {
            classStats.close();
        }
    }

    /** Ports currently managed, for status pages. */
    public synchronized List<PortId> managedPorts() {
        return List.copyOf(new TreeSet<>(installed.keySet()));
    }

    /** Runs {@code perNamespace} on each namespace's changes, namespaces in parallel. */
    private Map<Change, Outcome> inParallelByNamespace(List<Change> work,
                                                       Function<List<Change>, Map<Change, Outcome>> perNamespace) {
        Map<String, List<Change>> groups = new LinkedHashMap<>();
        for (Change c : work) {
            groups.computeIfAbsent(Objects.toString(c.port().namespace(), ""), k -> new ArrayList<>()).add(c);
        }
        Map<Change, Outcome> out = new LinkedHashMap<>();
        if (groups.size() <= 1) {
            groups.values().forEach(g -> out.putAll(perNamespace.apply(g)));
            return out;
        }
        List<Future<Map<Change, Outcome>>> futures = new ArrayList<>();
        for (List<Change> g : groups.values()) {
            futures.add(namespaces.submit(() -> perNamespace.apply(g)));
        }
        for (Future<Map<Change, Outcome>> f : futures) {
            try {
                out.putAll(f.get());
            } catch (ExecutionException e) {
                throw new IllegalStateException("tc push failed unexpectedly", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while pushing to tc", e);
            }
        }
        return out;
    }

    private static void logRates(Change c) {
        if (log.isInfoEnabled()) {
            // the shares, not just the mapping: what an operator compares with tc's counters
            HtbPlan plan = c.plan();
            StringBuilder rates = new StringBuilder(plan.nonSaba().classId() + "=" + share(plan.nonSaba(), plan));
            plan.queues().forEach(q -> rates.append(' ').append(q.classId()).append('=').append(share(q, plan)));
            log.info("port {} ({}): {} queues, DSCP→queue {}, rates {}", c.id(), c.port(), plan.queues().size(),
                    plan.queueOfDscp(), rates);
        }
    }

    private static String share(HtbPlan.HtbClass c, HtbPlan plan) {
        return String.format(java.util.Locale.ROOT, "%.1f%%", 100.0 * c.rateBps() / plan.linkBps());
    }
}
