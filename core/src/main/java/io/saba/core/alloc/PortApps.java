package io.saba.core.alloc;

import io.saba.core.model.SensitivityModel;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The applications crossing one port, sorted by id, as {@link Allocator#allocatePort} reads them: one array per
 * field rather than an object per application. A controller copies a port's applications into one of these under
 * its lock on every recomputation of the port, so the copy is a few array stores per application, and the sorted
 * order it keeps incrementally is not sorted again.
 *
 * <p>Each application also carries a model id: equal ids for one model instance, different ids for different
 * instances (the controller numbers its table's models once; {@link #of} numbers those it is given), so grouping
 * by model is an array lookup rather than a search or a hash per application.
 *
 * <p>Immutable; {@link #asList()} shows it as {@link AppAtPort}s for the decisions that want them.
 */
public final class PortApps {
    private static final Comparator<AppAtPort> BY_APP_ID = Comparator.comparing(AppAtPort::appId);

    private final String[] ids;
    private final String[] workloads;
    private final int[] levels;
    private final SensitivityModel[] models;
    private final int[] modelIds;
    private final int modelIdBound;
    private final int[] flows;

    private PortApps(String[] ids, String[] workloads, int[] levels, SensitivityModel[] models, int[] modelIds,
                     int modelIdBound, int[] flows) {
        this.ids = ids;
        this.workloads = workloads;
        this.levels = levels;
        this.models = models;
        this.modelIds = modelIds;
        this.modelIdBound = modelIdBound;
        this.flows = flows;
    }

    private static final PortApps EMPTY = new PortApps(new String[0], new String[0], new int[0],
            new SensitivityModel[0], new int[0], 0, new int[0]);

    /** A port nobody crosses. */
    public static PortApps empty() {
        return EMPTY;
    }

    /** The applications in any order (sorted here; two with one id are refused). */
    public static PortApps of(List<AppAtPort> apps) {
        List<AppAtPort> sorted = new ArrayList<>(apps);
        sorted.sort(BY_APP_ID);
        Builder b = new Builder(sorted.size());
        Map<SensitivityModel, Integer> idOf = new IdentityHashMap<>();
        for (AppAtPort a : sorted) {
            Integer id = idOf.get(a.model());
            if (id == null) {
                id = idOf.size();
                idOf.put(a.model(), id);
            }
            b.add(a.appId(), a.workload(), a.level(), a.model(), id, a.flows());
        }
        return b.build();
    }

    /** Fills a {@link PortApps} in id order. */
    public static final class Builder {
        private String[] ids;
        private String[] workloads;
        private int[] levels;
        private SensitivityModel[] models;
        private int[] modelIds;
        private int modelIdBound;
        private int[] flows;
        private int size;

        /** @param capacity how many applications to expect (more may be added) */
        public Builder(int capacity) {
            int c = Math.max(1, capacity);
            ids = new String[c];
            workloads = new String[c];
            levels = new int[c];
            models = new SensitivityModel[c];
            modelIds = new int[c];
            flows = new int[c];
        }

        /**
         * Adds the next application; its id must sort after the previous one's (the order fixes each application's
         * weight within its group, so an unsorted snapshot would be a wrong allocation, not a slow one).
         *
         * @param modelId ≥ 0, the same for every application of {@code model} and for no other model (small: the
         *                allocation indexes an array by it)
         */
        public Builder add(String id, String workload, int level, SensitivityModel model, int modelId,
                           int flowCount) {
            if (size > 0 && ids[size - 1].compareTo(id) >= 0) {
                throw new IllegalArgumentException("application " + id + " added after " + ids[size - 1]
                        + ": a port's applications are added once each, in id order");
            }
            if (modelId < 0) {
                throw new IllegalArgumentException("model id " + modelId + " of " + id + " is negative");
            }
            if (size == ids.length) {
                int c = size * 2;
                ids = Arrays.copyOf(ids, c);
                workloads = Arrays.copyOf(workloads, c);
                levels = Arrays.copyOf(levels, c);
                models = Arrays.copyOf(models, c);
                modelIds = Arrays.copyOf(modelIds, c);
                flows = Arrays.copyOf(flows, c);
            }
            ids[size] = id;
            workloads[size] = workload;
            levels[size] = level;
            models[size] = model;
            modelIds[size] = modelId;
            modelIdBound = Math.max(modelIdBound, modelId + 1);
            flows[size] = flowCount;
            size++;
            return this;
        }

        /** The applications added; the builder is not to be used afterwards (its arrays may be shared). */
        public PortApps build() {
            if (size == ids.length) {
                return new PortApps(ids, workloads, levels, models, modelIds, modelIdBound, flows);
            }
            return new PortApps(Arrays.copyOf(ids, size), Arrays.copyOf(workloads, size), Arrays.copyOf(levels, size),
                    Arrays.copyOf(models, size), Arrays.copyOf(modelIds, size), modelIdBound,
                    Arrays.copyOf(flows, size));
        }
    }

    public int size() {
        return ids.length;
    }

    public boolean isEmpty() {
        return ids.length == 0;
    }

    public String id(int i) {
        return ids[i];
    }

    public int level(int i) {
        return levels[i];
    }

    public SensitivityModel model(int i) {
        return models[i];
    }

    /** The id of application i's model (see {@link Builder#add}). */
    public int modelId(int i) {
        return modelIds[i];
    }

    /** Above every model id here. */
    public int modelIdBound() {
        return modelIdBound;
    }

    /** The ids in order, shared: only this package's immutable maps keep it. */
    String[] idArray() {
        return ids;
    }

    /** The applications as records, in id order (made on each read). */
    public List<AppAtPort> asList() {
        return new AbstractList<>() {
            @Override
            public AppAtPort get(int i) {
                return new AppAtPort(ids[i], workloads[i], levels[i], models[i], flows[i]);
            }

            @Override
            public int size() {
                return ids.length;
            }
        };
    }

    @Override
    public String toString() {
        return asList().toString();
    }
}
