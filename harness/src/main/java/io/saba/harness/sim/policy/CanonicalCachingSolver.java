package io.saba.harness.sim.policy;

import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.PortSolution;
import io.saba.core.solve.PortSolver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Memoises a {@link PortSolver}: Eq. 2 depends only on the multiset of models on a port, and a campaign asks for
 * the same multisets over and over (the same workloads meet on many ports, and a port's set changes only when one
 * of its jobs ends). Models are sorted into a canonical order before solving and the weights handed back in the
 * caller's order; applications with equal models get equal weights either way. Thread-safe.
 */
public final class CanonicalCachingSolver implements PortSolver {
    private final PortSolver inner;
    private final Map<Key, double[]> cache = new ConcurrentHashMap<>();

    private record Key(List<SensitivityModel> models, double capacity) {
    }

    public CanonicalCachingSolver(PortSolver inner) {
        this.inner = inner;
    }

    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        int n = models.size();
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Arrays.compare(models.get(a).coefficients(), models.get(b).coefficients()));
        List<SensitivityModel> canonical = new ArrayList<>(n);
        for (int i : order) {
            canonical.add(models.get(i));
        }
        double[] w = cache.computeIfAbsent(new Key(List.copyOf(canonical), capacity),
                k -> inner.solve(k.models(), k.capacity()).weights());
        double[] out = new double[n];
        double objective = 0;
        for (int k = 0; k < n; k++) {
            out[order[k]] = w[k];
            objective += canonical.get(k).slowdown(w[k]);
        }
        return new PortSolution(out, objective);
    }
}
