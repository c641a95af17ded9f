package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The global optimum of the paper's Eq. 2 for one port: minimise Σ D_i(w_i) subject to Σ w_i = C_Saba and
 * w_i ≥ floor.
 *
 * <h2>Method</h2>
 * <ol>
 *   <li>Applications with the same model are interchangeable, so they form one group (a port carries hundreds of
 *       applications but only as many distinct models as workloads).</li>
 *   <li>Each model is replaced by its convex envelope on its interval ({@link ConvexEnvelope}); the relaxed
 *       problem is convex and separable and is solved exactly by searching the Lagrange multiplier λ
 *       (safeguarded Newton, then interpolation across a jump). Its value is a lower bound on the true
 *       optimum.</li>
 *   <li>If every application sits where the envelope equals its model, the relaxed optimum is feasible and hence
 *       globally optimal: the usual case, because slowdown curves are mostly convex.</li>
 *   <li>Otherwise spatial branch and bound: split the interval of an application sitting on a bridge at its value
 *       and solve both halves, whose envelopes are tighter; stop when the best feasible point is within
 *       {@code tolerance} of the smallest lower bound. The result is therefore globally optimal within the
 *       tolerance for any model, convex or not: every model has at most one concave stretch, so one bridge per
 *       interval captures all the non-convexity (see {@link SensitivityModel#convexEnvelopeBridge}).</li>
 * </ol>
 *
 * <h2>The floor</h2>
 * Profiles start at 5 % of the link, so a model says nothing about smaller shares; extrapolating a cubic below
 * its data could reward starving one application on an artefact of the fit. Every application therefore gets at
 * least {@code floor} (default 5 %) — while the port carries at most C_Saba / (2 · floor) applications. A busier
 * port (a spine port carries hundreds) cannot give everyone 5 %, and an equal split there would throw away what
 * the models say; so the floor becomes half the equal share, C_Saba / (2n): no application is starved, and at most
 * half of the port is moved on extrapolated numbers.
 */
public final class MinSlowdownSolver implements PortSolver {
    /** The lowest profiled share. */
    public static final double DEFAULT_FLOOR = 0.05;
    private static final double DEFAULT_TOLERANCE = 1e-9;
    private static final int MAX_NODES = 20_000;

    private final double floor;
    private final double tolerance;
    /** The envelopes of the ports' root intervals, built once per model and application count. */
    private final RootEnvelopes envelopes = new RootEnvelopes();

    public MinSlowdownSolver() {
        this(DEFAULT_FLOOR);
    }

    /** @param floor the smallest weight any application gets, as a fraction of the link (0 ≤ floor &lt; 1) */
    public MinSlowdownSolver(double floor) {
        this(floor, DEFAULT_TOLERANCE);
    }

    /** @param tolerance relative optimality tolerance of the branch and bound */
    public MinSlowdownSolver(double floor, double tolerance) {
        if (!(floor >= 0 && floor < 1)) {
            throw new IllegalArgumentException("floor must be in [0, 1), got " + floor);
        }
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
        }
        this.floor = floor;
        this.tolerance = tolerance;
    }

    public double floor() {
        return floor;
    }

    /** The smallest weight an application gets on a port with n applications (see the class comment). */
    public double floorFor(int n, double capacity) {
        return floorFor(floor, n, capacity);
    }

    /** The floor rule, shared with other solvers of the same problem so they solve exactly the same one. */
    public static double floorFor(double floor, int n, double capacity) {
        return Math.min(floor, capacity / (2.0 * n));
    }

    @Override
    public PortSolution solve(List<SensitivityModel> models, double capacity) {
        Groups groups = Groups.of(models);
        return groups.expand(solveGroups(groups.distinct, groups.counts(), capacity), capacity);
    }

    @Override
    public GroupSolution solveGroups(List<SensitivityModel> models, int[] counts, double capacity) {
        return solveGroups(models, counts, capacity, Double.NaN);
    }

    @Override
    public GroupSolution solveGroups(List<SensitivityModel> models, int[] counts, double capacity, double lambdaHint) {
        if (!(capacity > 0 && capacity <= 1)) {
            throw new IllegalArgumentException("capacity (C_Saba) must be in (0, 1], got " + capacity);
        }
        int n = 0;
        for (int c : counts) {
            if (c < 1) {
                throw new IllegalArgumentException("every group needs at least one application, got " + c);
            }
            n += c;
        }
        if (n == 0) {
            return new GroupSolution(new double[0][], new int[0][], 0);
        }
        double lo = floorFor(n, capacity);
        double hi = capacity - (n - 1) * lo;
        if (lo <= 0) {
            for (SensitivityModel m : models) {
                if (!m.isPolynomial()) {
                    throw new IllegalArgumentException("a floor of 0 cannot be used with " + m
                            + ": its slowdown is unbounded at zero bandwidth; give a positive floor");
                }
            }
        }
        ConvexEnvelope[] rootEnvelopes = new ConvexEnvelope[models.size()];
        for (int g = 0; g < rootEnvelopes.length; g++) {
            rootEnvelopes[g] = envelopes.of(models.get(g), n, capacity, lo, hi);
        }
        Items root = Items.root(rootEnvelopes, counts);
        Relaxation first = Relaxation.solve(root, capacity, lambdaHint);
        return branchAndBound(root, first, capacity).perGroup(models.size(), first.lambda);
    }

    /** @return the best point found: globally optimal within the tolerance unless the node limit was hit */
    private Rounding branchAndBound(Items root, Relaxation first, double capacity) {
        Rounding direct = Rounding.of(root, first);
        if (direct.branchItem < 0) {
            return direct; // the relaxation is attained: globally optimal
        }
        Incumbent best = new Incumbent();
        PriorityQueue<Node> open = new PriorityQueue<>((x, y) -> Double.compare(x.relaxation.lowerBound(),
                y.relaxation.lowerBound()));
        open.add(new Node(root, first));
        int visited = 0;
        while (!open.isEmpty() && visited++ < MAX_NODES) {
            Node node = open.poll();
            if (node.relaxation.lowerBound() >= best.value - slack(best.value)) {
                break; // every open node is at least as good a bound: the incumbent is optimal
            }
            Rounding r = Rounding.of(node.items, node.relaxation);
            best.offer(r);
            if (r.value - node.relaxation.lowerBound() <= slack(r.value) || r.branchItem < 0) {
                continue;
            }
            for (Items child : node.items.split(r.branchItem, r.branchAt)) {
                Relaxation relaxed = Relaxation.solve(child, capacity);
                if (relaxed != null && relaxed.lowerBound() < best.value - slack(best.value)) {
                    open.add(new Node(child, relaxed));
                }
            }
        }
        return best.rounding;
    }

    private double slack(double value) {
        return tolerance * Math.max(1, Math.abs(value));
    }

    private record Node(Items items, Relaxation relaxation) {
    }

    /** The best feasible point found so far, stored per item so it can be mapped back to groups. */
    private static final class Incumbent {
        double value = Double.POSITIVE_INFINITY;
        Rounding rounding;

        void offer(Rounding r) {
            if (r.value < value) {
                value = r.value;
                rounding = r;
            }
        }
    }

    /** Identical models grouped; remembers where each input application went. */
    private static final class Groups {
        final List<SensitivityModel> distinct = new ArrayList<>();
        private final List<Integer> counts = new ArrayList<>();
        private final int[] groupOfInput;
        private final List<SensitivityModel> inputs;

        private Groups(List<SensitivityModel> inputs) {
            this.inputs = inputs;
            this.groupOfInput = new int[inputs.size()];
        }

        static Groups of(List<SensitivityModel> models) {
            Groups g = new Groups(models);
            Map<SensitivityModel, Integer> index = new HashMap<>();
            for (int i = 0; i < models.size(); i++) {
                SensitivityModel m = models.get(i);
                Integer k = index.get(m);
                if (k == null) {
                    k = g.distinct.size();
                    index.put(m, k);
                    g.distinct.add(m);
                    g.counts.add(0);
                }
                g.counts.set(k, g.counts.get(k) + 1);
                g.groupOfInput[i] = k;
            }
            return g;
        }

        int[] counts() {
            return counts.stream().mapToInt(Integer::intValue).toArray();
        }

        /** Puts group g's values back at the positions of its applications in the input. */
        PortSolution expand(GroupSolution solution, double capacity) {
            int[] next = new int[distinct.size()];
            double[] w = new double[inputs.size()];
            double sum = 0;
            for (int i = 0; i < w.length; i++) {
                int g = groupOfInput[i];
                w[i] = solution.weight(g, next[g]++);
                sum += w[i];
            }
            // Spread rounding noise (≈1e-16 per application) so the weights sum to C_Saba exactly enough for a switch.
            double fix = w.length == 0 ? 0 : (capacity - sum) / w.length;
            double objective = 0;
            for (int i = 0; i < w.length; i++) {
                w[i] += fix;
                objective += inputs.get(i).slowdown(w[i]);
            }
            return new PortSolution(w, objective);
        }
    }
}
