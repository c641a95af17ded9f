package io.saba.core.cluster;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.TreeSet;

/**
 * The paper's hierarchical clustering of priority levels (§5.3.2), used to fit the levels present on a port into
 * that port's queues.
 *
 * <p>Hierarchy level 1 puts every PL in its own cluster. Each further level merges the two clusters whose
 * centroids are closest (Euclidean distance between their {@link LevelAssigner#features}, the slowdowns at fixed
 * shares); the merged centroid is the Euclidean midpoint of the two (unweighted, as in the paper). Merging stops
 * when the number of clusters equals the requested minimum (the smallest queue count of any port). Ties in distance
 * are broken by the smallest PL in each cluster, so the hierarchy depends only on its input.
 *
 * <p>Immutable. Hierarchy levels are numbered from 1 as in the paper.
 */
public final class LevelHierarchy {
    private final List<List<SortedSet<Integer>>> levels;
    private final Map<Long, Map<Integer, Integer>> memo = new ConcurrentHashMap<>();
    private final Map<Long, int[]> arrays = new ConcurrentHashMap<>();
    private static final long SMALL_MASKS = 1L << 16;
    private final AtomicReferenceArray<AtomicReferenceArray<int[]>> smallByQueues = new AtomicReferenceArray<>(64);

    private LevelHierarchy(List<List<SortedSet<Integer>>> levels) {
        this.levels = levels;
    }

    /**
     * Builds the hierarchy.
     *
     * @param centroids   PL → the centroid model of its applications
     * @param minClusters merge until this many clusters remain (≥ 1); the smallest queue count of any port
     */
    public static LevelHierarchy build(Map<Integer, SensitivityModel> centroids, int minClusters) {
        Objects.requireNonNull(centroids, "centroids");
        if (minClusters < 1) {
            throw new IllegalArgumentException("need at least one cluster, got " + minClusters);
        }
        List<SortedSet<Integer>> members = new ArrayList<>();
        List<double[]> points = new ArrayList<>();
        for (Map.Entry<Integer, SensitivityModel> e : new TreeMap<>(centroids).entrySet()) {
            members.add(Collections.unmodifiableSortedSet(new TreeSet<>(Set.of(e.getKey()))));
            points.add(LevelAssigner.features(e.getValue()));
        }
        List<List<SortedSet<Integer>>> levels = new ArrayList<>();
        levels.add(List.copyOf(members));
        while (members.size() > minClusters) {
            // members stay sorted by their smallest PL, so the first closest pair found is the tie-break winner
            int bestA = -1;
            int bestB = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int a = 0; a < members.size(); a++) {
                for (int b = a + 1; b < members.size(); b++) {
                    double d = distance(points.get(a), points.get(b));
                    if (d < best) {
                        best = d;
                        bestA = a;
                        bestB = b;
                    }
                }
            }
            TreeSet<Integer> merged = new TreeSet<>(members.get(bestA));
            merged.addAll(members.get(bestB));
            double[] mid = midpoint(points.get(bestA), points.get(bestB));
            members.remove(bestB);
            points.remove(bestB);
            members.set(bestA, Collections.unmodifiableSortedSet(merged));
            points.set(bestA, mid);
            levels.add(List.copyOf(members));
        }
        return new LevelHierarchy(List.copyOf(levels));
    }

    /** Number of hierarchy levels (1 for a hierarchy that never merged). */
    public int depth() {
        return levels.size();
    }

    /**
     * The clusters at one hierarchy level, each a sorted set of PLs, ordered by their smallest PL.
     *
     * @param hierarchyLevel 1..{@link #depth()}
     */
    public List<SortedSet<Integer>> clustersAt(int hierarchyLevel) {
        if (hierarchyLevel < 1 || hierarchyLevel > levels.size()) {
            throw new IllegalArgumentException("hierarchy level " + hierarchyLevel + " outside 1.." + levels.size());
        }
        return levels.get(hierarchyLevel - 1);
    }

    /** The PLs the hierarchy was built on. */
    public SortedSet<Integer> levelsKnown() {
        TreeSet<Integer> all = new TreeSet<>();
        levels.get(0).forEach(all::addAll);
        return Collections.unmodifiableSortedSet(all);
    }

    /**
     * Maps the PLs present on a port to that port's queues: takes the first hierarchy level at which the present PLs
     * fall into at most {@code queues} clusters, and gives each such cluster a queue index 0, 1, … in increasing order
     * of the cluster's smallest present PL (a queue's index says nothing about priority: its weight does).
     *
     * @param levelsPresent the PLs whose traffic crosses the port (each must be in the hierarchy)
     * @param queues        queues available for them (≥ 1)
     * @return PL → queue index, for exactly the present PLs
     * @throws IllegalArgumentException if a PL is unknown or the present PLs cannot fit even at the last level
     */
    public Map<Integer, Integer> queueMap(Set<Integer> levelsPresent, int queues) {
        Objects.requireNonNull(levelsPresent, "levelsPresent");
        long key = memoKey(levelsPresent, queues);
        if (key < 0) {
            return computeQueueMap(levelsPresent, queues);
        }
        // Thousands of ports share a few level combinations; the map depends on nothing else.
        Map<Integer, Integer> known = memo.get(key);
        if (known == null) {
            known = computeQueueMap(levelsPresent, queues);
            memo.putIfAbsent(key, known);
        }
        return known;
    }

    /**
     * {@link #queueMap} for the controller's hot path: the levels present as a bit mask (bit L = level L, levels
     * below 57), the answer as an array indexed by level holding its queue, or −1 for levels not present.
     */
    public int[] queueArray(long levelMask, int queues) {
        if (levelMask < 0 || levelMask >= (1L << 57) || queues < 0 || queues >= 64) {
            throw new IllegalArgumentException("levels must be below 57 and queues below 64, got mask "
                    + Long.toBinaryString(levelMask) + " and " + queues + " queues");
        }
        boolean small = levelMask < SMALL_MASKS;
        long key = (levelMask << 6) | queues;
        int[] known = small ? smallArrays(queues).get((int) levelMask) : arrays.get(key);
        if (known == null) {
            Set<Integer> present = new TreeSet<>();
            for (long m = levelMask; m != 0; m &= m - 1) {
                present.add(Long.numberOfTrailingZeros(m));
            }
            known = new int[64 - Long.numberOfLeadingZeros(levelMask)];
            Arrays.fill(known, -1);
            for (Map.Entry<Integer, Integer> e : queueMap(present, queues).entrySet()) {
                known[e.getKey()] = e.getValue();
            }
            if (small) {
                smallArrays(queues).compareAndSet((int) levelMask, null, known);
            } else {
                arrays.putIfAbsent(key, known);
            }
        }
        return known;
    }

    /** Per queue count, answers for level sets within InfiniBand's 16 levels, indexed by mask without boxing. */
    private AtomicReferenceArray<int[]> smallArrays(int queues) {
        AtomicReferenceArray<int[]> a = smallByQueues.get(queues);
        if (a == null) {
            smallByQueues.compareAndSet(queues, null, new AtomicReferenceArray<>((int) SMALL_MASKS));
            a = smallByQueues.get(queues);
        }
        return a;
    }

    /** levels as a bit mask beside the queue count, or −1 where they do not fit in a long. */
    private static long memoKey(Set<Integer> levelsPresent, int queues) {
        if (queues < 0 || queues >= 64) {
            return -1;
        }
        long mask = 0;
        for (int level : levelsPresent) {
            if (level < 0 || level >= 57) {
                return -1;
            }
            mask |= 1L << level;
        }
        return (mask << 6) | queues;
    }

    private Map<Integer, Integer> computeQueueMap(Set<Integer> levelsPresent, int queues) {
        if (queues < 1) {
            throw new IllegalArgumentException("need at least one queue, got " + queues);
        }
        SortedSet<Integer> known = levelsKnown();
        for (Integer pl : levelsPresent) {
            if (!known.contains(pl)) {
                throw new IllegalArgumentException("priority level " + pl + " is not in the hierarchy " + known);
            }
        }
        for (List<SortedSet<Integer>> clusters : levels) {
            List<SortedSet<Integer>> used = new ArrayList<>();
            for (SortedSet<Integer> c : clusters) {
                if (!Collections.disjoint(c, levelsPresent)) {
                    used.add(c);
                }
            }
            if (used.size() <= queues) {
                used.sort((x, y) -> Integer.compare(smallestPresent(x, levelsPresent), smallestPresent(y, levelsPresent)));
                Map<Integer, Integer> queueOf = new HashMap<>();
                for (int q = 0; q < used.size(); q++) {
                    for (Integer pl : used.get(q)) {
                        if (levelsPresent.contains(pl)) {
                            queueOf.put(pl, q);
                        }
                    }
                }
                return Collections.unmodifiableMap(new TreeMap<>(queueOf));
            }
        }
        throw new IllegalArgumentException(levelsPresent.size() + " priority levels cannot share " + queues
                + " queues: the hierarchy stops at " + levels.get(levels.size() - 1).size() + " clusters");
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("LevelHierarchy");
        for (int i = 0; i < levels.size(); i++) {
            s.append("\n  ").append(i + 1).append(": ").append(levels.get(i));
        }
        return s.toString();
    }

    private static int smallestPresent(SortedSet<Integer> cluster, Set<Integer> present) {
        for (Integer pl : cluster) {
            if (present.contains(pl)) {
                return pl;
            }
        }
        throw new IllegalStateException("cluster " + cluster + " has no present level");
    }

    private static double distance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            double d = a[i] - b[i];
            s += d * d;
        }
        return Math.sqrt(s);
    }

    private static double[] midpoint(double[] a, double[] b) {
        double[] m = Arrays.copyOf(a, a.length);
        for (int i = 0; i < m.length; i++) {
            m[i] = (a[i] + b[i]) / 2;
        }
        return m;
    }
}
