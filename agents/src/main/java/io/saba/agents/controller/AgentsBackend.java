package io.saba.agents.controller;

import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.saba.controller.fabric.AgentStatus;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.DriftCheck;
import io.saba.controller.fabric.FabricBackend;
import io.saba.controller.fabric.NodeOwnership;
import io.saba.controller.grpc.GrpcServing;
import io.saba.controller.topology.AgentTopology;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import io.saba.proto.v1.AgentNic;
import io.saba.proto.v1.HostPlan;
import io.saba.proto.v1.PlanAck;
import io.saba.proto.v1.PortQueueBytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code backend: agents}: each host's NIC ports are enforced by that host's own agent ({@code saba agent}). A push
 * records the host's new plan under a new version, sends the host's whole plan down the agent's plan stream and
 * waits a bounded time for the agent to acknowledge that version; a port whose host has no agent connected, whose
 * agent refused it or did not answer in time is failed with the reason (the controller retries it), and its plan
 * stays recorded, so an agent that connects later receives it first thing.
 *
 * <p>The agents' service is served on the controller's own gRPC server ({@link GrpcServing}). Ports of nodes
 * that are not the topology's hosts (switch ports) go to another backend, when one is given, and are otherwise
 * accepted without being enforced.
 *
 * <p>In a controller group each host whose NIC is managed is held by one member at a time, as a switch is
 * ({@link NodeOwnership}), and only that member serves the host's agent: any other member refuses the agent's calls
 * (FAILED_PRECONDITION naming the member meant to hold the host, or UNAVAILABLE while none is known or this member
 * is taking the host over), and the agent tries its next controller. A member that loses a host (handed over, cut
 * off from the group's store, leaving) ends the agent's plan stream once its pushes are fenced and forgets the host's
 * plan; the member that takes the host over pushes the host's ports whole from its replica and sends that plan, and
 * nothing older, to the agent: a watch that arrives before that push is held open and gets the plan when it is made.
 * Versions only grow per member (each starts from its clock), which is all an agent relies on: it applies whatever
 * plan its current stream sends and acknowledges that version to the same member.
 */
public final class AgentsBackend implements FabricBackend, GrpcServing {
    private static final Logger LOG = LoggerFactory.getLogger(AgentsBackend.class);

    private final Duration ackTimeout;
    private final SwitchPorts switches;
    private final Map<String, HostRecord> hosts = new TreeMap<>();
    private volatile Set<String> topologyHosts = Set.of();
    /** The topology the agents' announcements build ({@code topology: {from-agents: ...}}), or null. */
    private volatile AgentTopology learned;
    /** Which hosts this controller programs, in a controller group; null: a lone controller programs every host. */
    private volatile NodeOwnership nodes;
    /** A port's rate in the topology, sent with its plan: the rate the weights are fractions of. */
    private volatile Function<PortId, OptionalDouble> capacityGbps = p -> OptionalDouble.empty();
    /**
     * The newest version handed out. It starts from the clock (microseconds), so a restarted controller's versions
     * are above its predecessor's and an agent's acknowledgement of an old plan is never taken for a new one.
     */
    private long version = System.currentTimeMillis() * 1000;
    private boolean stopped;
    private java.time.Instant lastAck;

    /** @param ackTimeout how long a push waits for the agents' acknowledgements */
    public AgentsBackend(Duration ackTimeout) {
        this(ackTimeout, null);
    }

    /** @param switches the backend of switch ports, or null to leave them unenforced */
    public AgentsBackend(Duration ackTimeout, FabricBackend switches) {
        this.ackTimeout = ackTimeout;
        this.switches = new SwitchPorts(switches);
    }

    /**
     * A host's port (its agent's), as opposed to a switch's: a host of the topology, or of the topology the agents
     * built so far; any port while the hosts are not known (paths discovered).
     */
    private boolean hostPort(PortId p) {
        AgentTopology t = learned;
        if (t != null) {
            return t.hosts().contains(p.node());
        }
        Set<String> known = topologyHosts;
        return known.isEmpty() || known.contains(p.node());
    }

    @Override
    public String name() {
        return "agents";
    }

    @Override
    public List<ServerServiceDefinition> grpcServices(Access access) {
        AgentMetrics.register(access.metrics(), this::agents);
        topologyHosts = access.hosts();
        capacityGbps = access.capacityGbps();
        learned = access.agentTopology();
        return List.of(ServerInterceptors.intercept(new AgentsService(this, access.onRefusal()),
                new AgentAuth(access)));
    }

    @Override
    public synchronized ApplyResult apply(Collection<PortAllocation> changed) {
        Map<String, List<PortId>> byHost = new TreeMap<>();
        List<PortAllocation> switchPorts = new ArrayList<>();
        for (PortAllocation a : changed) {
            if (!hostPort(a.port())) {
                switchPorts.add(a);
                continue;
            }
            host(a.port().node()).plan.put(a.port().port(), a);
            byHost.computeIfAbsent(a.port().node(), h -> new ArrayList<>()).add(a.port());
        }
        return SwitchPorts.merge(push(byHost, false), switches.apply(switchPorts));
    }

    @Override
    public void ownership(NodeOwnership nodes) {
        this.nodes = nodes;
    }

    /**
     * Why this controller does not serve the agent of {@code host} now, or null when it does: a lone controller
     * serves every host, a group member the hosts it holds (and hosts the topology does not have, which get no plan
     * anyway).
     */
    io.grpc.Status notServed(String host) {
        NodeOwnership n = nodes;
        if (n == null || !topologyHosts.contains(host) || n.programs(host)) {
            return null;
        }
        String meant = n.meantFor(host);
        if (meant == null) {
            return io.grpc.Status.UNAVAILABLE.withDescription("controller group member " + n.self() + " does not "
                    + "program host " + host + " and knows no member that does (cut off from the group's store, or "
                    + "the topology manages no host's NIC)");
        }
        if (meant.equals(n.self())) {
            return io.grpc.Status.UNAVAILABLE.withDescription("controller group member " + n.self() + " does not "
                    + "program host " + host + " now (taking it over, cut off from the group's store, or leaving); try "
                    + "another member or again");
        }
        return io.grpc.Status.FAILED_PRECONDITION.withDescription("controller group member " + n.self()
                + " does not program host " + host + ": member " + meant + " does");
    }

    /**
     * The group's ownership narrowed and no push is in flight: every host this member no longer holds loses its
     * agent's stream (the agent moves on to the member that takes the host) and its plan here, which the member that
     * holds the host now owns; should the host come back, it is pushed whole again ({@link #retaken}) before its
     * agent hears from this member.
     */
    @Override
    public synchronized void fenced() {
        for (HostRecord h : hosts.values()) {
            io.grpc.Status why = notServed(h.host);
            if (why == null) {
                continue;
            }
            if (h.stream != null) {
                LOG.info("no longer serving the agent of {}: {}", h.host, why.getDescription());
                try {
                    h.stream.onError(why.asRuntimeException());
                } catch (RuntimeException ignored) {
                    // the stream is gone already
                }
                h.stream = null;
            }
            h.forget();
        }
        notifyAll();
    }

    /**
     * The host ports about to be pushed whole by this member (it took their hosts over): their hosts' plans are held
     * back from agents until that push, and a release in it is sent too, so the agent then drops whatever the
     * previous member had it apply.
     */
    @Override
    public synchronized void retaken(Set<PortId> ports) {
        for (PortId p : ports) {
            if (hostPort(p)) {
                HostRecord h = host(p.node());
                h.plan.remove(p.port());
                h.awaitingPlan = true;
            }
        }
    }

    @Override
    public synchronized ApplyResult release(Set<PortId> ports) {
        Map<String, List<PortId>> byHost = new TreeMap<>();
        Set<PortId> switchPorts = new TreeSet<>();
        for (PortId p : ports) {
            if (!hostPort(p)) {
                switchPorts.add(p);
                continue;
            }
            HostRecord h = hosts.get(p.node());
            // a host taken over sends its plan even when nothing was planned there here: the agent must drop what
            // the previous member had it apply
            if (h != null && (h.plan.remove(p.port()) != null || h.awaitingPlan)) {
                byHost.computeIfAbsent(p.node(), k -> new ArrayList<>()).add(p);
            }
        }
        ApplyResult r = push(byHost, true);
        Set<PortId> done = new TreeSet<>(ports);
        done.removeAll(switchPorts);
        done.removeAll(r.failed().keySet());
        return SwitchPorts.merge(new ApplyResult(done, r.failed()), switches.release(switchPorts));
    }

    /**
     * Sends each host its new plan, then waits until each connected host's agent acknowledged it or the timeout
     * passed. A released port whose host has no agent counts as done: that agent restores its NIC when its lease
     * ends, and is sent the plan without the port when it connects.
     */
    private ApplyResult push(Map<String, List<PortId>> byHost, boolean releasing) {
        for (String host : byHost.keySet()) {
            HostRecord h = hosts.get(host);
            h.planVersion = ++version;
            h.awaitingPlan = false;
            send(h);
        }
        long deadline = System.nanoTime() + ackTimeout.toNanos();
        while (byHost.keySet().stream().map(hosts::get).anyMatch(h -> h.connected() && h.ackedVersion < h.planVersion)
                && System.nanoTime() < deadline) {
            try {
                long nanos = deadline - System.nanoTime();
                wait(Math.max(1, nanos / 1_000_000), 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Set<PortId> applied = new TreeSet<>();
        Map<PortId, String> failed = new HashMap<>();
        byHost.forEach((host, ports) -> {
            HostRecord h = hosts.get(host);
            String why = !h.connected() ? (releasing ? null : "no agent connected for host " + host)
                    : h.ackedVersion < h.planVersion ? "the agent of " + host + " did not acknowledge plan version "
                    + h.planVersion + " within " + ackTimeout.toMillis() + " ms" : null;
            if (why != null && h.connected()) {
                h.lastError = why;
            }
            for (PortId p : ports) {
                String refused = why == null ? h.refused.get(p.port()) : null;
                if (why != null) {
                    failed.put(p, why);
                } else if (refused != null) {
                    failed.put(p, "the agent of " + host + " refused it: " + refused);
                } else {
                    applied.add(p);
                }
            }
        });
        return new ApplyResult(applied, failed);
    }

    /**
     * Sends the host's whole plan to its agent, if one is connected and the plan is this member's own (not one held
     * back until a host taken over is pushed whole); a broken stream disconnects it.
     */
    private void send(HostRecord h) {
        if (h.stream == null || h.awaitingPlan) {
            return;
        }
        try {
            h.stream.onNext(h.message(capacityGbps));
        } catch (RuntimeException e) {
            LOG.info("plan stream of {} is gone: {}", h.host, e.getMessage());
            h.stream = null;
        }
    }

    private HostRecord host(String name) {
        return hosts.computeIfAbsent(name, HostRecord::new);
    }

    /** An agent announced its host; returns the host's current plan version. */
    synchronized long announced(String host, List<AgentNic> nics) {
        HostRecord h = host(host);
        h.nics = List.copyOf(nics);
        LOG.info("agent of {} announced NICs {}", host, nics.stream().map(AgentNic::getName).toList());
        if (learned == null && !topologyHosts.isEmpty() && !topologyHosts.contains(host)) {
            LOG.warn("an agent announced host {}, which the topology does not have: it will get no plan (is --host "
                    + "the topology's name for it?)", host);
        }
        return h.planVersion;
    }

    /**
     * With a topology built from the agents, adds the announced host to it (or updates its NIC) before the host is
     * served; a refusal is logged once per reason and shown as the host's last error on the status pages.
     *
     * @return null when the host may go on, else the status the announcement is answered with
     */
    io.grpc.Status learn(String host, List<AgentNic> nics) {
        AgentTopology t = learned;
        if (t == null) {
            return null;
        }
        String why;
        io.grpc.Status status;
        try {
            String change = t.announce(host, nics);
            if (change != null) {
                LOG.info("topology from agents: {}", change);
            }
            synchronized (this) {
                HostRecord h = host(host);
                if (h.lastError != null && h.lastError.equals(h.announceRefusal)) {
                    h.lastError = null;
                }
                h.announceRefusal = null;
            }
            return null;
        } catch (IllegalArgumentException e) {
            why = "announcement refused: " + e.getMessage();
            status = io.grpc.Status.INVALID_ARGUMENT;
        } catch (java.io.IOException e) {
            why = "announcement not kept: cannot write the hosts learned from agents: " + e;
            status = io.grpc.Status.UNAVAILABLE;
        }
        synchronized (this) {
            HostRecord h = host(host);
            if (!why.equals(h.announceRefusal)) {
                LOG.warn("host {}: {}", host, why);
            }
            h.announceRefusal = why;
            h.lastError = why;
        }
        return status.withDescription(why);
    }

    /**
     * An agent's plan stream opened: it replaces an older one of the host, and gets the whole plan now (a host this
     * member has just taken over: once it is pushed). Refused on a group member that does not hold the host.
     */
    synchronized void watch(String host, ServerCallStreamObserver<HostPlan> stream) {
        if (stopped) {
            stream.onError(io.grpc.Status.UNAVAILABLE.withDescription("the controller is stopping")
                    .asRuntimeException());
            return;
        }
        io.grpc.Status refused = notServed(host);
        if (refused != null) {
            LOG.debug("refusing the plan stream of {}: {}", host, refused.getDescription());
            stream.onError(refused.asRuntimeException());
            return;
        }
        HostRecord h = host(host);
        if (h.stream != null) {
            try {
                h.stream.onCompleted();
            } catch (RuntimeException ignored) {
                // the older stream is gone already
            }
        }
        h.stream = stream;
        stream.setOnCancelHandler(() -> disconnected(h, stream));
        if (h.awaitingPlan) {
            LOG.info("agent of {} connected; its plan follows once this member has pushed the host", host);
        } else {
            LOG.info("agent of {} connected; sending plan version {} ({} ports)", host, h.planVersion,
                    h.plan.size());
        }
        send(h);
    }

    private synchronized void disconnected(HostRecord h, ServerCallStreamObserver<HostPlan> stream) {
        if (h.stream == stream) {
            h.stream = null;
            LOG.info("agent of {} disconnected", h.host);
            notifyAll();
        }
    }

    /** An agent's acknowledgement; returns the host's current plan version. */
    synchronized long acked(PlanAck ack) {
        HostRecord h = host(ack.getHost());
        lastAck = java.time.Instant.now();
        if (ack.getVersion() > h.planVersion) {
            // a version this controller never sent the host: another controller's, acknowledged late
            LOG.debug("ignoring {}'s acknowledgement of version {} (its plan is at {})", h.host, ack.getVersion(),
                    h.planVersion);
        } else if (ack.getVersion() >= h.ackedVersion) {
            h.ackedVersion = ack.getVersion();
            h.refused = Map.copyOf(ack.getPortErrorsMap());
            h.drift = ack.getDrift();
            Map<Integer, Map<Integer, Long>> counters = new HashMap<>();
            for (PortQueueBytes q : ack.getCountersList()) {
                counters.put(q.getPort(), Map.copyOf(q.getQueueBytesMap()));
            }
            h.counters = counters;
            h.lastError = h.refused.isEmpty() ? null : "refused " + new TreeMap<>(h.refused);
        }
        notifyAll();
        return h.planVersion;
    }

    @Override
    public synchronized Map<Integer, Long> queueBytes(PortId port) {
        if (!hostPort(port)) {
            return switches.queueBytes(port);
        }
        HostRecord h = hosts.get(port.node());
        return h == null ? Map.of() : h.counters.getOrDefault(port.port(), Map.of());
    }

    @Override
    public boolean countsQueueBytes() {
        return true;
    }

    /** Every planned port of a host whose agent reports drift, with the agent's words. */
    @Override
    public synchronized Map<PortId, String> drift() {
        Map<PortId, String> out = new TreeMap<>(switches.drift());
        for (HostRecord h : hosts.values()) {
            if (!h.drift.isEmpty()) {
                h.plan.keySet().forEach(p -> out.put(new PortId(h.host, p), h.drift));
            }
        }
        return out;
    }

    /**
     * The agents of the hosts this controller serves: in a group, a host another member holds is that member's to
     * show (and to count as missing); the group's view says which member holds each host.
     */
    @Override
    public synchronized List<AgentStatus> agents() {
        return hosts.values().stream().filter(h -> notServed(h.host) == null).map(h -> new AgentStatus(h.host,
                h.connected(), h.planVersion, h.ackedVersion, h.plan.size(), h.lastError)).toList();
    }

    /** Ends every plan stream (the controller is stopping): agents reconnect to another controller or wait. */
    @Override
    public synchronized void stopServing() {
        stopped = true;
        for (HostRecord h : hosts.values()) {
            if (h.stream != null) {
                try {
                    h.stream.onCompleted();
                } catch (RuntimeException ignored) {
                    // gone already
                }
                h.stream = null;
            }
        }
    }

    /**
     * The agents read their NICs back with every acknowledgement (about once a second) and report what differs;
     * they do not repair it (the next plan does). A switch backend's own check adds its ports.
     */
    @Override
    public synchronized DriftCheck driftCheck() {
        int ports = hosts.values().stream().filter(HostRecord::connected).mapToInt(h -> h.plan.size()).sum();
        DriftCheck sw = switches.driftCheck();
        java.time.Instant last = lastAck;
        if (sw != null) {
            ports += sw.ports();
            last = last == null || (sw.last() != null && sw.last().isAfter(last)) ? sw.last() : last;
        }
        return new DriftCheck(Duration.ofSeconds(1), last, ports, false);
    }

    /** The switch ports' backend keeps its originals there; agents keep theirs on their own hosts. */
    @Override
    public void keepOriginalsIn(io.saba.controller.fabric.PortOriginals originals) {
        switches.keepOriginalsIn(originals);
    }

    @Override
    public Map<PortId, String> leftovers() {
        return switches.leftovers();
    }

    @Override
    public ApplyResult restoreLeftovers() {
        return switches.restoreLeftovers();
    }

    /**
     * Agents keep their NICs' plans for their lease (the controller stopping changes nothing on any host); the
     * switch ports' backend is closed.
     */
    @Override
    public void close() {
        stopServing();
        switches.close();
    }
}
