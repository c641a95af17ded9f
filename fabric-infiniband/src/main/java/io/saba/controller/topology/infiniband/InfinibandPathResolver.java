package io.saba.controller.topology.infiniband;

import io.saba.controller.topology.PathResolver;
import io.saba.controller.topology.RouteUnavailableException;
import io.saba.controller.topology.infiniband.IbSubnet.Host;
import io.saba.core.alloc.PortId;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Paths read from a live InfiniBand subnet: {@code ibnetdiscover} for nodes and cables, {@code dump_fts} for every
 * switch's linear forwarding table, and a walk of those tables from the source's port to the destination's LID —
 * the route the switches themselves take (it equals {@code ibtracert}'s, which the tests check pair by pair).
 *
 * <p><b>Hosts and addresses.</b> Hosts are channel-adapter ports (see {@link IbSubnet}). Connection endpoints are
 * IP addresses (IPoIB), mapped by configuration: each key names a host by its name (node description), by
 * {@code guid:0x…} (node or port GUID) or by {@code lid:N}, and is re-resolved after every discovery (LIDs move).
 *
 * <p><b>LMC.</b> With LMC &gt; 0 a destination answers to 2^LMC LIDs and each may route differently; which one a
 * connection uses is its own choice (path bits), invisible to Saba. {@code multipath=BASE} charges the base LID's
 * route only; {@code ALL} charges every port any of the routes crosses (no port a connection might load is left
 * without its weight).
 *
 * <p><b>Changes.</b> {@link #refresh()} re-discovers (on demand, and every {@code refreshSeconds} on a timer); when
 * nodes, cables, LIDs or any forwarding entry changed, the listeners run and the controller re-resolves every open
 * connection. A failed discovery keeps the last good fabric and is logged.
 *
 * <p><b>Before the subnet manager.</b> Until OpenSM (or another SM) has swept, every LID is 0 and no switch forwards
 * anything. Every failure of {@link #path} is a {@link RouteUnavailableException} (this fabric's routes come and
 * go), and a configured address whose host cannot be found yet (a {@code lid:N} key) {@link #mayResolveLater}: the
 * controller keeps such connections waiting and routes them at the refresh that finds their routes. With
 * {@code subnetWaitSeconds} the constructor first waits, at most that long, for the configured hosts to be routed
 * ({@link IbSubnet#unrouted}); it never fails because they are not.
 */
public final class InfinibandPathResolver implements PathResolver, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InfinibandPathResolver.class);

    /** Which LMC routes a connection is charged to. */
    public enum Multipath { BASE, ALL }

    private final Supplier<IbSubnet> discovery;
    private final Map<String, List<String>> addressesOfHostKey;
    private final int queues;
    private final Multipath multipath;
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** Every configured address, normalised: those may belong to a host later even when none owns them now. */
    private final Set<String> configuredIps;
    private final ScheduledExecutorService timer;
    private final long refreshSeconds;
    private final java.util.concurrent.atomic.AtomicLong refreshes = new java.util.concurrent.atomic.AtomicLong();
    private volatile View view;

    private record View(IbSubnet fabric, Map<String, String> hostOfIp) {
    }

    /**
     * @param discovery          produces a fresh fabric snapshot (normally {@link IbTools#discover})
     * @param addressesOfHostKey host key (name, {@code guid:0x…}, {@code lid:N}) → its literal IP addresses
     * @param queues             VLs Saba may use per switch port (the controller's queue count)
     * @param refreshSeconds     timer period, 0 for on-demand only
     */
    public InfinibandPathResolver(Supplier<IbSubnet> discovery, Map<String, List<String>> addressesOfHostKey,
                                  int queues, Multipath multipath, long refreshSeconds) {
        this(discovery, addressesOfHostKey, queues, multipath, refreshSeconds, 0);
    }

    /**
     * @param subnetWaitSeconds how long to wait here for the subnet manager to route the configured hosts (every
     *                          host when no address is configured) before answering anything; 0: not at all
     */
    public InfinibandPathResolver(Supplier<IbSubnet> discovery, Map<String, List<String>> addressesOfHostKey,
                                  int queues, Multipath multipath, long refreshSeconds, long subnetWaitSeconds) {
        if (queues < 2 || queues > 15) {
            throw new IllegalArgumentException("queues must be 2..15 (VL0 is the non-Saba VL, VL15 is management),"
                    + " got " + queues);
        }
        this.discovery = discovery;
        this.addressesOfHostKey = Map.copyOf(addressesOfHostKey);
        this.queues = queues;
        this.multipath = multipath;
        this.refreshSeconds = refreshSeconds;
        Set<String> ips = new java.util.HashSet<>();
        addressesOfHostKey.forEach((key, list) -> list.forEach(ip -> ips.add(normalise(ip, key))));
        this.configuredIps = Set.copyOf(ips);
        IbSubnet first = awaitRouted(discovery.get(), subnetWaitSeconds, refreshSeconds);
        this.view = new View(first, mapAddresses(first, true));
        LOG.info("InfiniBand subnet: {} switches, {} hosts, {} forwarding tables", first.switchNames().size(),
                first.hosts().size(), first.forwardingTables().size());
        if (refreshSeconds > 0) {
            timer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "saba-ib-refresh");
                t.setDaemon(true);
                return t;
            });
            timer.scheduleWithFixedDelay(this::refreshQuietly, refreshSeconds, refreshSeconds, TimeUnit.SECONDS);
        } else {
            timer = null;
        }
    }

    /**
     * Waits, at most {@code seconds}, for the subnet manager to route the configured hosts, re-discovering every
     * second; returns the last picture, routed or not (the controller serves either way: connections without a
     * route wait for one).
     */
    private IbSubnet awaitRouted(IbSubnet first, long seconds, long refreshSeconds) {
        IbSubnet f = first;
        List<String> unrouted = unrouted(f);
        if (unrouted.isEmpty()) {
            return f;
        }
        String then = refreshSeconds > 0 ? "the refresh (every " + refreshSeconds + " s) that finds their routes"
                : "a refresh that finds their routes";
        if (seconds <= 0) {
            LOG.warn("the subnet manager has not routed {} of the configured hosts yet ({}); connections between "
                    + "them wait, allocated at {}", unrouted.size(), summary(unrouted), then);
            return f;
        }
        LOG.info("waiting up to {} s for the subnet manager to route the configured hosts: {} not yet ({})", seconds,
                unrouted.size(), summary(unrouted));
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        while (!unrouted.isEmpty() && System.nanoTime() - end < 0) {
            try {
                Thread.sleep(Math.max(1, Math.min(1000, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            try {
                f = discovery.get();
                unrouted = unrouted(f);
            } catch (RuntimeException e) {
                LOG.debug("discovery while waiting for the subnet manager failed: {}", e.getMessage());
            }
        }
        if (unrouted.isEmpty()) {
            LOG.info("the subnet manager routed the configured hosts after {} ms",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } else {
            LOG.warn("the subnet manager has not routed {} of the configured hosts after {} s ({}); serving anyway: "
                    + "connections between them wait, allocated at {}", unrouted.size(), seconds, summary(unrouted),
                    then);
        }
        return f;
    }

    /** The configured hosts (every host when no address is configured) the subnet manager has not routed yet. */
    private List<String> unrouted(IbSubnet f) {
        if (addressesOfHostKey.isEmpty()) {
            return f.unrouted(f.hosts().keySet());
        }
        List<String> out = new ArrayList<>();
        Set<String> hosts = new java.util.TreeSet<>();
        for (String key : addressesOfHostKey.keySet()) {
            Optional<String> h = hostByKey(f, key);
            if (h.isPresent()) {
                hosts.add(h.get());
            } else {
                out.add("no host is '" + key + "' yet");
            }
        }
        out.addAll(f.unrouted(hosts));
        return out;
    }

    private static String summary(List<String> unrouted) {
        return unrouted.size() <= 3 ? String.join("; ", unrouted)
                : String.join("; ", unrouted.subList(0, 3)) + "; …";
    }

    /**
     * IP → host name. An unknown key fails at start ({@code strict}), except a {@code lid:N} key while some host has
     * no LID (the subnet manager has not assigned them yet); after a re-discovery it is logged.
     */
    private Map<String, String> mapAddresses(IbSubnet f, boolean strict) {
        Map<String, String> out = new HashMap<>();
        boolean lidsAssigned = f.hosts().values().stream().allMatch(h -> h.baseLid() != 0);
        addressesOfHostKey.forEach((key, ips) -> {
            Optional<String> host = hostByKey(f, key);
            if (host.isEmpty()) {
                String msg = "address key '" + key + "' names no host of the discovered subnet (hosts: "
                        + f.hosts().keySet() + ")";
                if (strict && (lidsAssigned || !key.startsWith("lid:"))) {
                    throw new IllegalArgumentException(msg);
                }
                LOG.warn("{}; its addresses resolve to nothing until it is back", msg);
                return;
            }
            for (String ip : ips) {
                String prev = out.put(normalise(ip, key), host.get());
                if (prev != null && !prev.equals(host.get())) {
                    throw new IllegalArgumentException("address " + ip + " given to both " + prev + " and " + host.get());
                }
            }
        });
        return Map.copyOf(out);
    }

    static Optional<String> hostByKey(IbSubnet f, String key) {
        if (f.hosts().containsKey(key)) {
            return Optional.of(key);
        }
        for (Host h : f.hosts().values()) {
            if (key.startsWith("guid:")) {
                long g = Long.parseUnsignedLong(key.substring(5).replaceFirst("^0x", ""), 16);
                if (h.nodeGuid() == g || h.portGuid() == g) {
                    return Optional.of(h.name());
                }
            } else if (key.startsWith("lid:")) {
                int lid = Integer.parseInt(key.substring(4));
                if (h.baseLid() != 0 && lid >= h.baseLid() && lid < h.baseLid() + h.lidCount()) {
                    return Optional.of(h.name());
                }
            }
        }
        return Optional.empty();
    }

    private static String normalise(String ip, String key) {
        if (!ip.matches("[0-9.]+") && ip.indexOf(':') < 0) {
            throw new IllegalArgumentException("address '" + ip + "' of " + key + " is not a literal IP address");
        }
        try {
            return InetAddress.getByName(ip).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("address '" + ip + "' of " + key + " is not a valid IP address", e);
        }
    }

    /**
     * Re-discovers now; runs the listeners if the fabric changed.
     *
     * @return true if it changed
     */
    public boolean refresh() {
        refreshes.incrementAndGet();
        IbSubnet next = discovery.get();
        View before = view;
        if (next.sameAs(before.fabric())) {
            return false;
        }
        view = new View(next, mapAddresses(next, false));
        LOG.info("InfiniBand subnet changed: {} switches, {} hosts", next.switchNames().size(), next.hosts().size());
        listeners.forEach(Runnable::run);
        return true;
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            LOG.warn("InfiniBand re-discovery failed; keeping the last subnet picture: {}", e.getMessage());
        }
    }

    public IbSubnet fabric() {
        return view.fabric();
    }

    /** The re-discovery timer's period in seconds (0: on demand only). */
    public long refreshSeconds() {
        return refreshSeconds;
    }

    /** Re-discoveries begun so far, on the timer or on demand ({@link #refresh}'s listeners see their own). */
    public long refreshes() {
        return refreshes.get();
    }

    @Override
    public Optional<String> hostOf(String ip) {
        return Optional.ofNullable(view.hostOfIp().get(ip));
    }

    @Override
    public boolean mayResolveLater(String ip) {
        return configuredIps.contains(ip);
    }

    /**
     * {@inheritDoc} Any failure is a {@link RouteUnavailableException}: on a live subnet a host without a LID, a
     * switch without a forwarding entry or a route ending elsewhere is the subnet manager's work in progress.
     */
    @Override
    public List<PortId> path(String srcHost, String dstHost) {
        IbSubnet f = view.fabric();
        try {
            if (multipath == Multipath.BASE) {
                return f.path(srcHost, dstHost, 0);
            }
            Set<PortId> all = new LinkedHashSet<>();
            for (List<PortId> p : paths(f, srcHost, dstHost)) {
                all.addAll(p);
            }
            return new ArrayList<>(all);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new RouteUnavailableException(e.getMessage());
        }
    }

    /** One route per destination LID (2^LMC of them). */
    public List<List<PortId>> paths(String srcHost, String dstHost) {
        return paths(view.fabric(), srcHost, dstHost);
    }

    private static List<List<PortId>> paths(IbSubnet f, String src, String dst) {
        List<List<PortId>> out = new ArrayList<>();
        int n = f.host(dst).lidCount();
        for (int i = 0; i < n; i++) {
            out.add(f.path(src, dst, i));
        }
        return out;
    }

    @Override
    public int queues(PortId port) {
        return queues;
    }

    @Override
    public int minQueues() {
        return queues;
    }

    @Override
    public void onPathsChanged(Runnable listener) {
        listeners.add(listener);
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
