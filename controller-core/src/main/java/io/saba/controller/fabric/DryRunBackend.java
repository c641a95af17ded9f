package io.saba.controller.fabric;

import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fabric that only records: what each port is configured with now, and the last pushes in order — exactly what
 * a switch would have been told. Tests assert on it; operators run it to see decisions before enforcing them.
 *
 * <p>Options: {@code log} (boolean, default true) logs every port configuration at INFO; {@code history}
 * (int, default 10,000) pushes remembered.
 */
public final class DryRunBackend implements FabricBackend {
    private static final Logger LOG = LoggerFactory.getLogger(DryRunBackend.class);

    /** One port told one thing; {@code allocation} is null for a release. */
    public record Push(long sequence, PortId port, PortAllocation allocation) {
    }

    private final boolean log;
    private final int historyLimit;
    private final Map<PortId, PortAllocation> configured = new TreeMap<>();
    private final Deque<Push> history = new ArrayDeque<>();
    private final AtomicLong pushes = new AtomicLong();

    /** Shares as a reader wants them: "[0.1000, 0.9000]", not 0.09999999999999998. */
    private static String weights(double[] w) {
        return Arrays.stream(w).mapToObj(x -> String.format(java.util.Locale.ROOT, "%.4f", x))
                .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    public DryRunBackend(boolean log, int historyLimit) {
        this.log = log;
        this.historyLimit = historyLimit;
    }

    @Override
    public String name() {
        return "dry-run";
    }

    @Override
    public synchronized ApplyResult apply(Collection<PortAllocation> changed) {
        Set<PortId> applied = new HashSet<>();
        for (PortAllocation a : changed) {
            configured.put(a.port(), a);
            remember(new Push(pushes.incrementAndGet(), a.port(), a));
            applied.add(a.port());
            if (log) {
                LOG.info("dry-run: port {} level->queue {} queue weights {}", a.port(),
                        new TreeMap<>(a.queueOfLevel()), weights(a.queueWeights()));
            }
        }
        return new ApplyResult(applied, Map.of());
    }

    @Override
    public synchronized ApplyResult release(Set<PortId> ports) {
        for (PortId p : ports) {
            configured.remove(p);
            remember(new Push(pushes.incrementAndGet(), p, null));
            if (log) {
                LOG.info("dry-run: port {} back to its default configuration", p);
            }
        }
        return new ApplyResult(ports, Map.of());
    }

    private void remember(Push p) {
        history.addLast(p);
        while (history.size() > historyLimit) {
            history.removeFirst();
        }
    }

    /** The configuration each port holds now. */
    public synchronized Map<PortId, PortAllocation> configured() {
        return Map.copyOf(configured);
    }

    public synchronized List<Push> history() {
        return List.copyOf(history);
    }

    /** Port configurations pushed (and released) so far. */
    public long pushes() {
        return pushes.get();
    }

    @Override
    public synchronized void close() {
        configured.clear();
    }

    /** Registered under "dry-run". */
    public static final class Provider implements FabricBackendProvider {
        @Override
        public String name() {
            return "dry-run";
        }

        @Override
        public FabricBackend create(Map<String, Object> options) {
            Object l = options.getOrDefault("log", Boolean.TRUE);
            Object h = options.getOrDefault("history", 10_000);
            return new DryRunBackend(Boolean.parseBoolean(String.valueOf(l)), Integer.parseInt(String.valueOf(h)));
        }
    }
}
