package io.saba.core.cluster;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
    /** PLs are below this, so a set of them is a bit mask (bit L = PL L): DSCP's 6 bits less the default's 8. */
    public static final int LEVEL_LIMIT = 57;
    private final List<List<SortedSet<Integer>>> levels;
    /** The same clusters as {@link #levels}, each a bit mask, in the same order: what the hot path reads. */
    private final long[][] clusterMasks;
    private final long knownMask;
    private final Map<Long, int[]> arrays = new ConcurrentHashMap<>();
    private static final long SMALL_MASKS = 1L << 16;
    private final AtomicReferenceArray<AtomicReferenceArray<int[]>> smallByQueues = new AtomicReferenceArray<>(64);

    private LevelHierarchy(List<List<SortedSet<Integer>>> levels) {
        this.levels = levels;
        this.clusterMasks = new long[levels.size()][];
        for (int h = 0; h < levels.size(); h++) {
            List<SortedSet<Integer>> clusters = levels.get(h);
            clusterMasks[h] = new long[clusters.size()];
            for (int c = 0; c < clusters.size(); c++) {
                clusterMasks[h][c] = maskOf(clusters.get(c));
            }
        }
        this.knownMask = levels.isEmpty() ? 0 : maskOf(levelsKnown());
    }

    /**
     * Builds the hierarchy.
     *
     * @param centroids   PL (0 ≤ PL &lt; {@link #LEVEL_LIMIT}) → the centroid model of its applications
     * @param minClusters merge until this many clusters remain (≥ 1); the smallest queue count of any port
     * @throws IllegalArgumentException for a PL outside 0..56 or fewer than one cluster
     */
    public static LevelHierarchy build(Map<Integer, SensitivityModel> centroids, int minClusters) {
        Objects.requireNonNull(centroids, "centroids");
        if (minClusters < 1) {
            throw new IllegalArgumentException("need at least one cluster, got " + minClusters);
        }
        List<SortedSet<Integer>> members = new ArrayList<>();
        List<double[]> points = new ArrayList<>();
        for (Map.Entry<Integer, SensitivityModel> e : new TreeMap<>(centroids).entrySet()) {
            if (e.getKey() < 0 || e.getKey() >= LEVEL_LIMIT) {
                throw new IllegalArgumentException("priority level " + e.getKey() + " is outside 0.." + (LEVEL_LIMIT - 1));
            }
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
        long mask = 0;
        for (int pl : levelsPresent) {
            if (pl < 0 || pl >= LEVEL_LIMIT) {
                throw new IllegalArgumentException("priority level " + pl + " is not in the hierarchy " + levelsKnown());
            }
            mask |= 1L << pl;
        }
        if (queues < 1 || queues >= 64) {
            throw new IllegalArgumentException("need between 1 and 63 queues, got " + queues);
        }
        int[] queueOf = queueArray(mask, queues);
        Map<Integer, Integer> out = new TreeMap<>();
        for (int pl : levelsPresent) {
            out.put(pl, queueOf[pl]);
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * {@link #queueMap} for the controller's hot path: the levels present as a bit mask (bit L = level L, levels
     * below 57), the answer as an array indexed by level holding its queue, or −1 for levels not present.
     */
    public int[] queueArray(long levelMask, int queues) {
        if (levelMask < 0 || levelMask >= (1L << LEVEL_LIMIT) || queues < 0 || queues >= 64) {
            throw new IllegalArgumentException("levels must be below " + LEVEL_LIMIT + " and queues below 64, got mask "
                    + Long.toBinaryString(levelMask) + " and " + queues + " queues");
        }
        boolean small = levelMask < SMALL_MASKS;
        long key = (levelMask << 6) | queues;
        int[] known = small ? smallArrays(queues).get((int) levelMask) : arrays.get(key);
        if (known == null) {
            known = computeQueueArray(levelMask, queues);
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

    /** The rule of {@link #queueMap} on masks: clusters used at each hierarchy level, in order of their lowest present PL. */
    private int[] computeQueueArray(long present, int queues) {
        if (queues < 1) {
            throw new IllegalArgumentException("need at least one queue, got " + queues);
        }
        long unknown = present & ~knownMask;
        if (unknown != 0) {
            throw new IllegalArgumentException("priority level " + Long.numberOfTrailingZeros(unknown)
                    + " is not in the hierarchy " + levelsKnown());
        }
        int[] queueOf = new int[64 - Long.numberOfLeadingZeros(present)];
        Arrays.fill(queueOf, -1);
        for (long[] clusters : clusterMasks) {
            long[] used = new long[clusters.length];
            int n = 0;
            for (long c : clusters) {
                if ((c & present) != 0) {
                    used[n++] = c & present;
                }
            }
            if (n <= queues) {
                // clusters are disjoint, so their lowest present PLs order them without ties
                sortByLowestLevel(used, n);
                for (int q = 0; q < n; q++) {
                    for (long m = used[q]; m != 0; m &= m - 1) {
                        queueOf[Long.numberOfTrailingZeros(m)] = q;
                    }
                }
                return queueOf;
            }
        }
        throw new IllegalArgumentException(Long.bitCount(present) + " priority levels cannot share " + queues
                + " queues: the hierarchy stops at " + levels.get(levels.size() - 1).size() + " clusters");
    }

    private static void sortByLowestLevel(long[] masks, int n) {
        for (int i = 1; i < n; i++) {
            long m = masks[i];
            int j = i - 1;
            while (j >= 0 && Long.numberOfTrailingZeros(masks[j]) > Long.numberOfTrailingZeros(m)) {
                masks[j + 1] = masks[j];
                j--;
            }
            masks[j + 1] = m;
        }
    }

    private static long maskOf(Set<Integer> levels) {
        long mask = 0;
        for (int pl : levels) {
            mask |= 1L << pl;
        }
        return mask;
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
