package io.saba.agents.host;

import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.PortOriginals;
import io.saba.controller.fabric.linux.HtbPlan;
import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.LinuxPortResolver;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.process.CommandRunner;
import io.saba.proto.v1.HostPlan;
import io.saba.proto.v1.HostPortPlan;
import io.saba.wire.DscpMap;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a host's plans to its own NICs with the Linux backend ({@link LinuxTcBackend}, HTB classes and DSCP
 * filters through {@code tc -batch}), keeping each NIC's original in the state directory before the first change,
 * so a restarted agent (or {@code saba agent restore}) knows what to put back. Thread-safe (the backend is).
 */
public final class PlanApplier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlanApplier.class);

    private final String host;
    private final List<NicSpec> nics;
    private final Nics kernel;
    private final String netns;
    private final LinuxTcBackend backend;
    private final PortOriginals originals;
    /** port → its rate in the controller's topology, as the latest plan gave it (absent: unknown). */
    private final Map<Integer, Long> plannedRates = new ConcurrentHashMap<>();
    /** Devices whose kernel speed and planned rate disagree, each logged once. */
    private final Set<String> mismatchLogged = ConcurrentHashMap.newKeySet();

    /**
     * @param nics     the NICs and the ports they are (one NIC without a port takes every port of the host)
     * @param netns    the network namespace the NICs are in, or null for the agent's own
     * @param stateDir where the NICs' originals are kept ({@value PortOriginals#FILE})
     */
    public PlanApplier(String host, List<NicSpec> nics, String netns, Path stateDir, CommandRunner shell) {
        this.host = host;
        this.nics = List.copyOf(nics);
        this.netns = netns;
        this.kernel = new Nics(shell, netns);
        this.originals = PortOriginals.in(stateDir);
        this.backend = new LinuxTcBackend(new Resolver(), DscpMap.classSelectors(), 1.0, shell, true);
        backend.keepOriginalsIn(originals);
    }

    Nics nicInfo() {
        return kernel;
    }

    List<NicSpec> nics() {
        return nics;
    }

    /**
     * The NIC of a port of this host, with its rate, or why there is none. The rate: the one given with the NIC
     * ({@code --nic DEV@RATE}); else the lower of the kernel's speed and the port's rate in the controller's
     * topology, either where the other is unknown. The controller's weights are fractions of its topology's rate,
     * and a virtual NIC's speed says nothing of its link (a veth reports 10 Gbit/s whatever shapes it), while a rate
     * above the kernel's the NIC cannot send.
     */
    private Optional<LinuxPort> portOf(int port, StringBuilder why) {
        NicSpec nic = nics.size() == 1 && nics.get(0).port() < 0 ? nics.get(0)
                : nics.stream().filter(n -> n.port() == port).findFirst().orElse(null);
        if (nic == null) {
            why.append("no NIC of this agent is port ").append(port).append(" (give --nic ").append(port)
                    .append("=DEV)");
            return Optional.empty();
        }
        long speed = kernel.speedBps(nic.device());
        long planned = plannedRates.getOrDefault(port, 0L);
        long rate = nic.rateBps() > 0 ? nic.rateBps() : speed <= 0 ? planned : planned <= 0 ? speed
                : Math.min(speed, planned);
        if (nic.rateBps() <= 0 && speed > 0 && planned > 0 && speed != planned && mismatchLogged.add(nic.device())) {
            LOG.warn("{}: the kernel reports {} bit/s, the controller's topology {} bit/s for port {}; shaping at {}"
                    + " bit/s (give --nic {}@RATE to choose)", nic.device(), speed, planned, port, rate, nic.device());
        }
        if (speed > 0 && rate > speed) {
            why.append(nic.device()).append(" is a ").append(speed).append(" bit/s link; it cannot hold ")
                    .append(rate).append(" bit/s");
            return Optional.empty();
        }
        if (rate <= 0) {
            why.append("the link rate of ").append(nic.device()).append(" is unknown (give --nic ")
                    .append(nic.device()).append("@RATE)");
            return Optional.empty();
        }
        return Optional.of(new LinuxPort(netns, nic.device(), rate));
    }

    /** Which device each of this host's ports is. */
    private final class Resolver implements LinuxPortResolver {
        @Override
        public Optional<LinuxPort> resolve(PortId port) {
            return port.node().equals(host) ? portOf(port.port(), new StringBuilder()) : Optional.empty();
        }

        @Override
        public Set<PortId> ports() {
            Set<PortId> out = new HashSet<>();
            nics.stream().filter(n -> n.port() >= 0).forEach(n -> out.add(new PortId(host, n.port())));
            return out;
        }
    }

    /**
     * Makes the NICs hold exactly the plan: its ports configured, every other port this agent configured released.
     * Returns the ports refused, each with why (they keep their previous configuration).
     */
    public Map<Integer, String> apply(HostPlan plan) {
        Map<Integer, String> refused = new TreeMap<>();
        List<PortAllocation> wanted = new ArrayList<>();
        Set<PortId> inPlan = new HashSet<>();
        for (HostPortPlan p : plan.getPortsList()) {
            if (p.getLinkRateBps() > 0) {
                plannedRates.put(p.getPort(), p.getLinkRateBps());
            } else {
                plannedRates.remove(p.getPort());
            }
        }
        for (HostPortPlan p : plan.getPortsList()) {
            PortId id = new PortId(host, p.getPort());
            inPlan.add(id);
            StringBuilder why = new StringBuilder();
            if (portOf(p.getPort(), why).isEmpty()) {
                refused.put(p.getPort(), why.toString());
                continue;
            }
            double[] w = p.getQueueWeightsList().stream().mapToDouble(Double::doubleValue).toArray();
            wanted.add(new PortAllocation(id, p.getQueueOfLevelMap(), w, Map.of()));
        }
        ApplyResult r = backend.apply(wanted);
        r.failed().forEach((id, why) -> refused.put(id.port(), why));
        Set<PortId> gone = new HashSet<>(backend.managedPorts());
        gone.removeAll(inPlan);
        backend.release(gone).failed().forEach((id, why) -> refused.put(id.port(), "release failed: " + why));
        return refused;
    }

    /** The byte counters of the queues on every port configured now. */
    public Map<Integer, Map<Integer, Long>> counters() {
        Map<Integer, Map<Integer, Long>> out = new TreeMap<>();
        for (PortId id : backend.managedPorts()) {
            out.put(id.port(), backend.queueBytes(id));
        }
        return out;
    }

    /**
     * What differs between the NICs and the plans this agent installed, read from the counters just taken (each
     * configured port's queue classes): empty when nothing does, else one clause per port (someone deleted the root
     * or changed Saba's classes).
     */
    public String drift(Map<Integer, Map<Integer, Long>> counters) {
        List<String> out = new ArrayList<>();
        for (PortId id : backend.managedPorts()) {
            // the plan's queue classes by their queue index: a queue no Saba DSCP points at (the one holding level
            // 0, untagged traffic) has no class of its own, so the indices need not start at 0
            Set<Integer> expected = new java.util.TreeSet<>();
            backend.installedPlan(id).ifPresent(p -> p.queues().forEach(c ->
                    expected.add(c.minor() - HtbPlan.FIRST_QUEUE_MINOR)));
            Set<Integer> found = new java.util.TreeSet<>(counters.getOrDefault(id.port(), Map.of()).keySet());
            if (!found.equals(expected)) {
                out.add("port " + id.port() + ": the NIC holds Saba's queues " + found + ", the plan " + expected);
            }
        }
        return String.join("; ", out);
    }

    /**
     * Gives the NICs back: every port this agent configured released, and whatever a killed agent left (the state
     * directory's originals) put back. Returns the ports that could not be.
     */
    public Map<PortId, String> restore() {
        Map<PortId, String> failed = new TreeMap<>(backend.release(Set.copyOf(backend.managedPorts())).failed());
        failed.putAll(backend.restoreLeftovers().failed());
        return failed;
    }

    /** Whether any NIC may hold something of Saba's (configured now, or an original kept from before). */
    public boolean holdsSomething() {
        return !backend.managedPorts().isEmpty() || !originals.all(backend.name()).isEmpty();
    }

    /**
     * Gives the NICs back (an agent stopped on purpose leaves nothing of Saba's behind; one killed leaves its plan
     * for the next start to resume or restore) and stops the backend's helpers.
     */
    @Override
    public void close() {
        backend.close();
    }
}
