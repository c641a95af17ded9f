package io.saba.controller.alloc;

import io.saba.core.alloc.AppAtPort;
import io.saba.core.alloc.PortDemand;
import io.saba.core.alloc.PortId;
import io.saba.core.alloc.PortWeightDecision;
import io.saba.core.corun.CorunAllocator;
import io.saba.core.corun.CorunPredictor;
import io.saba.core.corun.CorunProfile;
import io.saba.core.solve.GroupSolution;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A port's weights chosen by the co-run predictor instead of Eq. 2 on static shares ({@code allocation: corun}),
 * with a rule that it cannot do harm: a plan is applied only when its predicted total slowdown beats the equal
 * split by the margin, and a port keeps its current weights unless a new plan beats them by the margin too
 * (hysteresis: ports do not flap as connections come and go). A port with an application the table has no traffic
 * record for keeps Eq. 2's weights: the predictor has nothing to replay.
 *
 * <p>The allocation pipeline's per-port weight decision ({@link PortWeightDecision}) around another one, Eq. 2's,
 * which it asks first and falls back on.
 *
 * <p>Thread-safe; remembers per port what it decided.
 */
public final class CorunWeighting implements PortWeightDecision {
    private final PortWeightDecision fallback;
    private final Function<String, CorunProfile> profileOfWorkload;
    private final double cSaba;
    private final double floor;
    private final double margin;
    private final Map<PortId, Decided> decided = new ConcurrentHashMap<>();
    private final CorunSearches searches;

    /**
     * What a port was given.
     *
     * @param apps           the applications, sorted by id
     * @param weights        their weights, summing to C_Saba
     * @param predictedTotal the predicted sum of their slowdowns under {@code weights}
     * @param equalTotal     the same under the equal split
     * @param source         "corun", "equal" (no plan beat it by the margin) or "held" (kept from before)
     */
    public record Decided(List<String> apps, double[] weights, double predictedTotal, double equalTotal,
                          String source) {
        /** The predicted gain over the equal split, as a fraction of its total. */
        public double gain() {
            return equalTotal <= 0 ? 0 : (equalTotal - predictedTotal) / equalTotal;
        }
    }

    /**
     * @param fallback          the decision whose weights a port keeps where the predictor cannot help (Eq. 2); its
     *                          weights are also where the predictor's search starts
     * @param profileOfWorkload the co-run profile the table has for a workload, or null (read at every decision, so a
     *                          reloaded table takes effect)
     * @param cSaba             what the weights sum to
     * @param floor             the least weight an application gets
     * @param margin            the relative gain a plan must predict over the equal split, and over the port's
     *                          current weights, to be applied (e.g. 0.03)
     */
    public CorunWeighting(PortWeightDecision fallback, Function<String, CorunProfile> profileOfWorkload,
                          double cSaba, double floor, double margin) {
        this(fallback, profileOfWorkload, cSaba, floor, margin, new CorunSearches());
    }

    /** As above, with the weight searches remembered in {@code searches} (shared with other weightings). */
    public CorunWeighting(PortWeightDecision fallback, Function<String, CorunProfile> profileOfWorkload,
                          double cSaba, double floor, double margin, CorunSearches searches) {
        if (!(margin >= 0 && margin < 1)) {
            throw new IllegalArgumentException("the co-run margin must be in [0, 1), got " + margin);
        }
        this.fallback = fallback;
        this.profileOfWorkload = profileOfWorkload;
        this.cSaba = cSaba;
        this.floor = floor;
        this.margin = margin;
        this.searches = searches;
    }

    /**
     * The fallback's weights, replaced by the predictor's where {@link #weights} has any; the objective is then the
     * predictor's total.
     */
    @Override
    public GroupSolution decide(PortDemand demand, double capacity) {
        GroupSolution eq2 = fallback.decide(demand, capacity);
        if (demand.apps().isEmpty()) {
            return eq2;
        }
        Map<String, Double> chosen = weights(demand.port(), demand.apps(), demand.weightsOf(eq2));
        if (chosen == null) {
            return eq2;
        }
        return demand.solutionOf(chosen, decided.get(demand.port()).predictedTotal());
    }

    /**
     * The applications' weights on the port (summing to C_Saba), or null when the port keeps Eq. 2's: fewer than
     * two applications, or one without a co-run profile.
     *
     * @param apps the applications on the port, sorted by id
     * @param eq2  Eq. 2's weights for them (a starting point of the search)
     */
    public Map<String, Double> weights(PortId port, List<AppAtPort> apps, Map<String, Double> eq2) {
        List<CorunProfile> profiles = new ArrayList<>();
        for (AppAtPort a : apps) {
            CorunProfile p = profileOfWorkload.apply(a.workload());
            if (p == null) {
                break;
            }
            profiles.add(p);
        }
        if (apps.size() < 2 || profiles.size() < apps.size()) {
            decided.remove(port);
            return null;
        }
        List<String> ids = new ArrayList<>();
        double[] start = new double[apps.size()];
        for (int i = 0; i < apps.size(); i++) {
            ids.add(apps.get(i).appId());
            start[i] = eq2.getOrDefault(apps.get(i).appId(), cSaba / apps.size());
        }
        CorunAllocator.Decision d = searches.choose(profiles, cSaba, floor, start);
        Decided next;
        if (d.predictedTotal() > d.equalTotal() * (1 - margin)) {
            double[] equal = new double[apps.size()];
            Arrays.fill(equal, cSaba / apps.size());
            next = new Decided(ids, equal, d.equalTotal(), d.equalTotal(), "equal");
        } else {
            next = new Decided(ids, d.weights().clone(), d.predictedTotal(), d.equalTotal(), "corun");
        }
        Decided before = decided.get(port);
        if (before != null && before.apps().equals(ids)) {
            double held = CorunPredictor.total(profiles, before.weights(), null);
            if (next.predictedTotal() > held * (1 - margin)) {
                next = new Decided(ids, before.weights(), held, d.equalTotal(), "held");
            }
        }
        decided.put(port, next);
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            out.put(ids.get(i), next.weights()[i]);
        }
        return out;
    }

    /** What each port was last given, for status pages and metrics. */
    public Map<PortId, Decided> decisions() {
        return Map.copyOf(decided);
    }

    /** Forgets a port nobody crosses any more. */
    public void forget(PortId port) {
        decided.remove(port);
    }
}
