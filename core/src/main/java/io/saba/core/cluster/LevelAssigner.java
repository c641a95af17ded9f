package io.saba.core.cluster;

import io.saba.core.model.SensitivityModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.commons.math3.ml.clustering.CentroidCluster;
import org.apache.commons.math3.ml.clustering.DoublePoint;
import org.apache.commons.math3.ml.clustering.KMeansPlusPlusClusterer;
import org.apache.commons.math3.ml.clustering.MultiKMeansPlusPlusClusterer;
import org.apache.commons.math3.ml.distance.EuclideanDistance;
import org.apache.commons.math3.random.JDKRandomGenerator;

/**
 * Groups applications into priority levels by K-means on their sensitivity models (paper §5.3.1).
 *
 * <p><b>Features.</b> Each model's predicted slowdown at the paper's profiling shares 5, 10, 25, 50, 75, 90 and
 * 100 % ({@link #FEATURE_SHARES}), unscaled. The paper clusters coefficient vectors, which works while every model
 * is a polynomial in one basis; with several families (a + c/b beside cubics) coefficient vectors mean different
 * things and cannot be compared, while two models' values at the same shares always can. The Euclidean distance
 * between these vectors is a discrete L2 distance between the slowdown curves — what "similar sensitivity" means —
 * and the grid is densest at low shares, where curves differ most and Eq. 2's decisions are made. Standardising
 * each share's values would magnify the shares where all models nearly agree (near 100 %) and let their noise
 * decide the grouping, so we do not. Distinct models have distinct features (a non-zero model of this space has at
 * most four roots on b &gt; 0, the grid has seven shares).
 *
 * <p><b>Levels from scratch.</b> Level 0 is reserved for the default class (unregistered traffic). With S levels, applications
 * are clustered into at most S-1 groups. If there are no more distinct feature vectors than that, every distinct
 * vector gets its own level and K-means is not run. Groups are numbered 1..m in increasing sensitivity, measured as
 * the centroid's predicted slowdown at a 25 % share ({@link #PROBE_SHARE}): the most sensitive group gets the
 * highest number. Identical models share a level (but see workloads placed apart, below). A level's centroid is
 * the mean of its applications' models ({@link SensitivityModel#mean}), whose features are the mean of theirs.
 *
 * <p><b>Running workloads keep their levels</b> ({@link #assign(Map, LevelAssignment)}, what the controller
 * uses). A level reaches the wire when a connection is set up: a TCP socket's DSCP, an RDMA queue pair's SL (fixed
 * once the QP reaches RTR, for its whole life), a Flink partition's connection index. Renumbering the levels of
 * running applications when a workload arrives or leaves would leave their existing connections in another level's
 * queue, whose weight the controller computed for other traffic. So once applications run, the numbers are labels,
 * not ranks: a running workload keeps its level, and a newcomer joins the level of an identical model, else takes
 * the lowest free level, else (every level in use) joins the level whose centroid is nearest, the online form of
 * K-means. While the distinct models fit in the S-1 levels (7 on Ethernet, 15 on InfiniBand) this gives every
 * distinct model its own level, as clustering from scratch does, so the per-port hierarchy (which merges levels by
 * their centroids, not their numbers) and the weights (Eq. 2 decides per workload model, not per level) are the
 * same; only the labels differ. Beyond that a newcomer is not re-clustered with the running workloads, a coarser
 * grouping than K-means would choose, but one the fabric really carries.
 *
 * <p><b>Workloads placed apart</b> ({@link #assign(Map, LevelAssignment, Set)}): a controller that learns each
 * workload's sensitivity from what the fabric counts per queue cannot learn anything of workloads that share one.
 * Workloads nothing is known of yet all have the default model, so they would; instead each takes a level of its
 * own while half the levels are free of them.
 *
 * <p><b>Applications as members</b> ({@link #assignApplications}, {@code LevelMode.APPLICATION}): each application
 * is a member with its workload's model. Levels on the wire stay (as above); a newcomer takes the lowest free level
 * while one is free, else the level of an identical model (one workload) holding the fewest applications, else the
 * level whose centroid is nearest. Newcomers whose model no level holds yet are placed before those of a model
 * already placed, so a new workload is not left without a level by more applications of a known one. From scratch
 * (nothing running), one application of each distinct model is clustered as above (a level per model, numbered by
 * sensitivity, or K-means when the models outnumber the levels), the free levels go one at a time to the model with
 * the most applications per level it holds, and each model's applications are dealt over its levels in id order. A
 * level's centroid here is the unweighted mean of its distinct models, so a level of one workload's applications
 * has exactly that workload's model as centroid whatever their number, and the hierarchy merges such levels first.
 *
 * <p><b>Determinism.</b> K-means++ seeding uses a {@link JDKRandomGenerator} with a fixed seed, and the points are
 * fed in lexicographic order of their feature vectors, so the result depends only on the multiset of models and
 * on which application has which model — not on the order of the input map.
 */
public final class LevelAssigner {
    /** The level unregistered and unknown traffic uses; never assigned to an application. */
    public static final int DEFAULT_LEVEL = 0;
    /** InfiniBand has 16 service levels. */
    public static final int INFINIBAND_LEVELS = 16;
    /** Ethernet PCP has 8 priority values. */
    public static final int ETHERNET_LEVELS = 8;
    /** The share at which groups are compared to number them by sensitivity. */
    public static final double PROBE_SHARE = 0.25;
    /** Seed used by {@link #LevelAssigner(int)}. */
    public static final long DEFAULT_SEED = 0x5ABAL;

    /** The shares (fractions of the link) at which models are compared: the paper's profiling levels. */
    public static final double[] FEATURE_SHARES = {0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 1.0};
    private static final int MAX_ITERATIONS = 1000;
    private static final int TRIALS = 8;
    private static final Comparator<double[]> LEXICOGRAPHIC = Arrays::compare;

    private final int levels;
    private final long seed;

    /** An assigner for {@code levels} priority levels (including level 0) with the default seed. */
    public LevelAssigner(int levels) {
        this(levels, DEFAULT_SEED);
    }

    /**
     * @param levels number of priority levels S the fabric carries, including the default level 0 (≥ 2)
     * @param seed   seed of K-means++'s random choices
     */
    public LevelAssigner(int levels, long seed) {
        if (levels < 2) {
            throw new IllegalArgumentException("need at least 2 priority levels (0 is the default class), got " + levels);
        }
        if (levels > LevelHierarchy.LEVEL_LIMIT) {
            // a port's set of levels is a bit mask in the allocator's hot path; DSCP has 64 code points anyway
            throw new IllegalArgumentException("at most " + LevelHierarchy.LEVEL_LIMIT + " priority levels, got " + levels);
        }
        this.levels = levels;
        this.seed = seed;
    }

    /** Number of priority levels S, including the default level 0. */
    public int levels() {
        return levels;
    }

    /**
     * Clusters the applications into at most S-1 levels.
     *
     * @param modelOfApp application id → its sensitivity model
     * @return each application's level (1..S-1) and each used level's centroid
     */
    public LevelAssignment assign(Map<String, SensitivityModel> modelOfApp) {
        Objects.requireNonNull(modelOfApp, "modelOfApp");
        if (modelOfApp.isEmpty()) {
            return LevelAssignment.empty();
        }
        // distinct feature vector → its applications (sorted by id); vectors in lexicographic order
        TreeMap<double[], List<String>> appsOfVector = new TreeMap<>(LEXICOGRAPHIC);
        Map<double[], SensitivityModel> modelOfVector = new TreeMap<>(LEXICOGRAPHIC);
        for (Map.Entry<String, SensitivityModel> e : new TreeMap<>(modelOfApp).entrySet()) {
            SensitivityModel model = Objects.requireNonNull(e.getValue(), () -> "no model for application " + e.getKey());
            double[] v = features(model);
            appsOfVector.computeIfAbsent(v, x -> new ArrayList<>()).add(e.getKey());
            modelOfVector.putIfAbsent(v, model);
        }
        int groups = levels - 1;
        List<List<double[]>> clusters = appsOfVector.size() <= groups
                ? singletons(appsOfVector)
                : kMeans(appsOfVector, groups);

        // centroid of each cluster: the mean model, weighted by how many applications share each model
        List<SensitivityModel> centroids = new ArrayList<>();
        for (List<double[]> members : clusters) {
            List<SensitivityModel> models = new ArrayList<>();
            double[] weights = new double[members.size()];
            for (int i = 0; i < members.size(); i++) {
                models.add(modelOfVector.get(members.get(i)));
                weights[i] = appsOfVector.get(members.get(i)).size();
            }
            centroids.add(SensitivityModel.mean(models, weights));
        }
        Integer[] order = new Integer[clusters.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingDouble(i -> centroids.get(i).slowdown(PROBE_SHARE))
                .thenComparing(i -> features(centroids.get(i)), LEXICOGRAPHIC));

        Map<String, Integer> levelOfApp = new HashMap<>();
        Map<Integer, SensitivityModel> levelCentroids = new HashMap<>();
        for (int rank = 0; rank < order.length; rank++) {
            int level = rank + 1;
            int cluster = order[rank];
            levelCentroids.put(level, centroids.get(cluster));
            for (double[] v : clusters.get(cluster)) {
                for (String app : appsOfVector.get(v)) {
                    levelOfApp.put(app, level);
                }
            }
        }
        return new LevelAssignment(levelOfApp, levelCentroids);
    }

    /**
     * Levels for the workloads present, keeping the level of every one that {@code running} already placed (see the
     * class comment): the controller's plan when the set of workloads changes. With none of them running it is
     * {@link #assign(Map)}, clustering from scratch.
     *
     * @param modelOfApp workload (or application) id → its sensitivity model, every one present
     * @param running    the assignment in force, whose ids still present keep their levels
     * @return each id's level (1..S-1) and each used level's centroid (the mean of its members' models)
     */
    public LevelAssignment assign(Map<String, SensitivityModel> modelOfApp, LevelAssignment running) {
        return assign(modelOfApp, running, Set.of());
    }

    /**
     * {@link #assign(Map, LevelAssignment)}, with {@code apart} the ids nothing is known of yet (a learning
     * controller's workloads still on the default model). They all have the same model, so they would share one
     * level, and a queue shared by several applications counts bytes nobody can attribute: what a controller that
     * learns from the fabric's per-queue counts must not have. So a newcomer among them takes the lowest free level
     * instead of an identical model's, while fewer than {@link #maxApartLevels()} levels hold nothing but such ids;
     * past that it is placed as any newcomer. Their weights stay equal (same model); only the queues differ. Running
     * ids keep their levels whatever is learnt of them.
     */
    public LevelAssignment assign(Map<String, SensitivityModel> modelOfApp, LevelAssignment running,
                                  Set<String> apart) {
        Objects.requireNonNull(running, "running");
        Objects.requireNonNull(apart, "apart");
        Map<String, SensitivityModel> models = new TreeMap<>(modelOfApp);
        Map<String, Integer> levelOf = keptLevels(models.keySet(), running);
        if (levelOf.isEmpty()) {
            Map<String, SensitivityModel> known = new TreeMap<>(models);
            known.keySet().removeAll(apart);
            if (known.size() == models.size()) {
                return assign(models);
            }
            levelOf.putAll(assign(known).levelOfApp()); // the known ones as from scratch, the rest as newcomers
        }
        for (Map.Entry<String, SensitivityModel> e : models.entrySet()) {
            String id = e.getKey();
            if (levelOf.containsKey(id)) {
                continue;
            }
            int free = apart.contains(id) && apartLevels(levelOf, apart) < maxApartLevels() ? lowestFree(levelOf) : -1;
            levelOf.put(id, free > DEFAULT_LEVEL ? free : levelForNewcomer(features(e.getValue()), levelOf, models));
        }
        return new LevelAssignment(levelOf, centroids(levelOf, models));
    }

    /** The members still present that {@code running} placed on a level this fabric has: they keep it. */
    private Map<String, Integer> keptLevels(Set<String> present, LevelAssignment running) {
        Map<String, Integer> levelOf = new TreeMap<>();
        for (String id : present) {
            int level = running.levelOf(id);
            if (level > DEFAULT_LEVEL && level < levels) {
                levelOf.put(id, level);
            }
        }
        return levelOf;
    }

    /**
     * Levels for applications, each a member with its workload's model (see the class comment, "Applications as
     * members"): what the controller plans under {@code level-per: application}. Running applications keep their
     * levels; with none running it plans from scratch.
     *
     * @param modelOfApp application id → its workload's model, every application present
     * @param running    the levels on the wire (application id → level); ids still present keep theirs
     * @return each application's level (1..S-1) and each used level's centroid (the mean of its distinct models)
     */
    public LevelAssignment assignApplications(Map<String, SensitivityModel> modelOfApp, LevelAssignment running) {
        Objects.requireNonNull(running, "running");
        Map<String, SensitivityModel> models = new TreeMap<>();
        modelOfApp.forEach((id, model) -> models.put(id,
                Objects.requireNonNull(model, () -> "no model for application " + id)));
        FeatureCache features = new FeatureCache();
        Map<String, Integer> levelOf = keptLevels(models.keySet(), running);
        if (levelOf.isEmpty()) {
            levelOf.putAll(applicationsFromScratch(models, features));
        } else {
            Set<double[]> placed = new TreeSet<>(LEXICOGRAPHIC);
            levelOf.keySet().forEach(id -> placed.add(features.of(models.get(id))));
            List<String> order = new ArrayList<>();
            List<String> known = new ArrayList<>();
            for (String id : models.keySet()) {
                if (!levelOf.containsKey(id)) {
                    (placed.add(features.of(models.get(id))) ? order : known).add(id);
                }
            }
            order.addAll(known);
            for (String id : order) {
                levelOf.put(id, levelForApplication(features.of(models.get(id)), levelOf, models, features));
            }
        }
        return new LevelAssignment(levelOf, distinctCentroids(levelOf, models, features));
    }

    /** From scratch: a level per distinct model (or K-means), the free levels to the most crowded models. */
    private Map<String, Integer> applicationsFromScratch(Map<String, SensitivityModel> models, FeatureCache features) {
        TreeMap<double[], List<String>> appsOfVector = new TreeMap<>(LEXICOGRAPHIC);
        models.forEach((id, m) -> appsOfVector.computeIfAbsent(features.of(m), v -> new ArrayList<>()).add(id));
        Map<String, SensitivityModel> firsts = new TreeMap<>();
        appsOfVector.values().forEach(ids -> firsts.put(ids.get(0), models.get(ids.get(0))));
        LevelAssignment base = assign(firsts);
        Map<double[], List<Integer>> levelsOfVector = new TreeMap<>(LEXICOGRAPHIC);
        appsOfVector.forEach((v, ids) -> levelsOfVector.put(v, new ArrayList<>(List.of(base.levelOf(ids.get(0))))));
        Set<Integer> used = new HashSet<>(base.levelOfApp().values());
        for (int level = DEFAULT_LEVEL + 1; level < levels; level++) {
            if (used.contains(level)) {
                continue;
            }
            double[] best = null;
            for (Map.Entry<double[], List<Integer>> e : levelsOfVector.entrySet()) {
                if (appsOfVector.get(e.getKey()).size() > e.getValue().size()
                        && (best == null || moreCrowded(e.getKey(), best, appsOfVector, levelsOfVector))) {
                    best = e.getKey();
                }
            }
            if (best == null) {
                break; // every model has a level per application
            }
            levelsOfVector.get(best).add(level);
        }
        Map<String, Integer> out = new TreeMap<>();
        appsOfVector.forEach((v, ids) -> {
            List<Integer> own = levelsOfVector.get(v);
            for (int i = 0; i < ids.size(); i++) {
                out.put(ids.get(i), own.get(i % own.size()));
            }
        });
        return out;
    }

    /**
     * Whether model {@code a} has more applications per level than {@code b}, or as many and a higher first level
     * (the more sensitive, in a from-scratch numbering).
     */
    private static boolean moreCrowded(double[] a, double[] b, Map<double[], List<String>> apps,
                                       Map<double[], List<Integer>> levelsOf) {
        long left = (long) apps.get(a).size() * levelsOf.get(b).size();
        long right = (long) apps.get(b).size() * levelsOf.get(a).size();
        return left > right || (left == right && levelsOf.get(a).get(0) > levelsOf.get(b).get(0));
    }

    /**
     * A newcomer application's level: the lowest free level, else the level of an identical model with the fewest
     * applications (the lowest such on a tie), else the level whose centroid is nearest (the lowest on a tie).
     */
    private int levelForApplication(double[] v, Map<String, Integer> levelOf, Map<String, SensitivityModel> models,
                                    FeatureCache features) {
        int free = lowestFree(levelOf);
        if (free > DEFAULT_LEVEL) {
            return free;
        }
        Map<Integer, Integer> members = new TreeMap<>();
        Set<Integer> identical = new TreeSet<>();
        levelOf.forEach((id, level) -> {
            members.merge(level, 1, Integer::sum);
            if (Arrays.equals(v, features.of(models.get(id)))) {
                identical.add(level);
            }
        });
        int best = -1;
        for (int level : identical) {
            if (best < 0 || members.get(level) < members.get(best)) {
                best = level;
            }
        }
        if (best > DEFAULT_LEVEL) {
            return best;
        }
        double nearest = Double.POSITIVE_INFINITY;
        for (Map.Entry<Integer, SensitivityModel> c : distinctCentroids(levelOf, models, features).entrySet()) {
            double d = distance(v, features.of(c.getValue()));
            if (d < nearest) {
                nearest = d;
                best = c.getKey();
            }
        }
        return best;
    }

    /**
     * Each used level's centroid as {@link #assignApplications} keeps it: the unweighted mean of the level's distinct
     * models (by feature vector, in lexicographic order), or the model itself when the level holds one.
     */
    private static Map<Integer, SensitivityModel> distinctCentroids(Map<String, Integer> levelOf,
                                                                    Map<String, SensitivityModel> models,
                                                                    FeatureCache features) {
        Map<Integer, TreeMap<double[], SensitivityModel>> distinct = new TreeMap<>();
        levelOf.forEach((id, level) -> {
            SensitivityModel m = models.get(id);
            distinct.computeIfAbsent(level, l -> new TreeMap<>(LEXICOGRAPHIC)).putIfAbsent(features.of(m), m);
        });
        Map<Integer, SensitivityModel> out = new TreeMap<>();
        distinct.forEach((level, ms) -> out.put(level, ms.size() == 1 ? ms.firstEntry().getValue()
                : SensitivityModel.mean(new ArrayList<>(ms.values()))));
        return out;
    }

    /** Features computed once per model instance (a plan over many applications of a few workloads). */
    private static final class FeatureCache {
        private final Map<SensitivityModel, double[]> known = new IdentityHashMap<>();

        double[] of(SensitivityModel m) {
            return known.computeIfAbsent(m, LevelAssigner::features);
        }
    }

    /**
     * The most levels that may hold only ids placed apart: half the application levels (3 on Ethernet, 7 on
     * InfiniBand), so that workloads with profiles arriving later still find levels to be told apart by.
     */
    public int maxApartLevels() {
        return (levels - 1) / 2;
    }

    /** Levels whose every member is in {@code apart}. */
    private static long apartLevels(Map<String, Integer> levelOf, Set<String> apart) {
        Map<Integer, Boolean> onlyApart = new TreeMap<>();
        levelOf.forEach((id, level) -> onlyApart.merge(level, apart.contains(id), Boolean::logicalAnd));
        return onlyApart.values().stream().filter(b -> b).count();
    }

    /** The lowest level nobody holds, or -1. */
    private int lowestFree(Map<String, Integer> levelOf) {
        Set<Integer> used = new HashSet<>(levelOf.values());
        for (int level = DEFAULT_LEVEL + 1; level < levels; level++) {
            if (!used.contains(level)) {
                return level;
            }
        }
        return -1;
    }

    /** An identical model's level, else the lowest free level, else the level with the nearest centroid. */
    private int levelForNewcomer(double[] v, Map<String, Integer> levelOf, Map<String, SensitivityModel> models) {
        for (Map.Entry<String, Integer> placed : levelOf.entrySet()) {
            if (Arrays.equals(v, features(models.get(placed.getKey())))) {
                return placed.getValue();
            }
        }
        int free = lowestFree(levelOf);
        if (free > DEFAULT_LEVEL) {
            return free;
        }
        Map<Integer, SensitivityModel> centroids = centroids(levelOf, models);
        int nearest = -1;
        double best = Double.POSITIVE_INFINITY;
        for (Map.Entry<Integer, SensitivityModel> c : new TreeMap<>(centroids).entrySet()) {
            double d = distance(v, features(c.getValue()));
            if (d < best) {
                best = d;
                nearest = c.getKey();
            }
        }
        return nearest;
    }

    /** Each used level's centroid: the mean of its members' models, one weight per member. */
    private static Map<Integer, SensitivityModel> centroids(Map<String, Integer> levelOf,
                                                            Map<String, SensitivityModel> models) {
        Map<Integer, List<SensitivityModel>> members = new TreeMap<>();
        levelOf.forEach((id, level) -> members.computeIfAbsent(level, l -> new ArrayList<>()).add(models.get(id)));
        Map<Integer, SensitivityModel> out = new TreeMap<>();
        members.forEach((level, ms) -> out.put(level, SensitivityModel.mean(ms)));
        return out;
    }

    private static double distance(double[] a, double[] b) {
        return new EuclideanDistance().compute(a, b);
    }

    /** A model's K-means features: its predicted slowdown at each of {@link #FEATURE_SHARES}. */
    public static double[] features(SensitivityModel model) {
        double[] v = new double[FEATURE_SHARES.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = model.slowdown(FEATURE_SHARES[i]) + 0.0; // folds -0.0 into 0.0
        }
        return v;
    }

    private static List<List<double[]>> singletons(TreeMap<double[], List<String>> appsOfVector) {
        List<List<double[]>> clusters = new ArrayList<>();
        for (double[] v : appsOfVector.keySet()) {
            clusters.add(List.of(v));
        }
        return clusters;
    }

    private List<List<double[]>> kMeans(TreeMap<double[], List<String>> appsOfVector, int k) {
        // one point per application (so popular models pull centroids), in vector order
        List<DoublePoint> points = new ArrayList<>();
        Map<DoublePoint, double[]> vectorOfPoint = new HashMap<>();
        for (Map.Entry<double[], List<String>> e : appsOfVector.entrySet()) {
            for (int i = 0; i < e.getValue().size(); i++) {
                DoublePoint p = new DoublePoint(e.getKey());
                points.add(p);
                vectorOfPoint.putIfAbsent(p, e.getKey());
            }
        }
        JDKRandomGenerator random = new JDKRandomGenerator();
        random.setSeed(seed);
        KMeansPlusPlusClusterer<DoublePoint> one = new KMeansPlusPlusClusterer<>(k, MAX_ITERATIONS,
                new EuclideanDistance(), random, KMeansPlusPlusClusterer.EmptyClusterStrategy.LARGEST_VARIANCE);
        List<CentroidCluster<DoublePoint>> result = new MultiKMeansPlusPlusClusterer<>(one, TRIALS).cluster(points);

        // a distinct vector belongs to the cluster its first point landed in (identical points land together anyway)
        Map<double[], Integer> clusterOfVector = new LinkedHashMap<>();
        for (int c = 0; c < result.size(); c++) {
            for (DoublePoint p : result.get(c).getPoints()) {
                clusterOfVector.putIfAbsent(vectorOfPoint.get(p), c);
            }
        }
        List<List<double[]>> clusters = new ArrayList<>();
        Map<Integer, List<double[]>> byIndex = new TreeMap<>();
        for (double[] v : appsOfVector.keySet()) {
            byIndex.computeIfAbsent(clusterOfVector.get(v), c -> new ArrayList<>()).add(v);
        }
        clusters.addAll(byIndex.values());
        return clusters;
    }
}
