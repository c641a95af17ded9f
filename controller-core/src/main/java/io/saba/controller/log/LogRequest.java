package io.saba.controller.log;

import io.saba.controller.estimate.LearnedWorkload;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.LevelMode;
import io.saba.core.corun.CorunProfile;
import io.saba.core.model.SensitivityModel;
import io.saba.core.table.ModelCatalog;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One write to a controller's state, as its {@link StateLog} orders and keeps it and its {@link Replica} applies
 * it: a lone controller's journal and a group's shared log carry the same requests, and every replica applies them
 * in log order through the same code, so replicas of one log agree at every position of it.
 */
public sealed interface LogRequest {
    /** What a client call asks; applied with the caller's tenant exactly as a lone controller would. */
    enum Kind { REGISTER, DEREGISTER, EVENT, BATCH }

    record Call(String tenant, Kind kind, List<Mutation> mutations) implements LogRequest {
        public Call {
            mutations = List.copyOf(mutations);
        }
    }

    /** Applications that heartbeated at a group member (appId → tenant), logged before the heartbeat is answered. */
    record Renew(Map<String, String> tenantOfApp) implements LogRequest {
        public Renew {
            tenantOfApp = new TreeMap<>(tenantOfApp);
        }
    }

    /** Applications whose lease ran out, as the leader saw it (appId → tenant). */
    record Expire(Map<String, String> tenantOfApp) implements LogRequest {
        public Expire {
            tenantOfApp = new TreeMap<>(tenantOfApp);
        }
    }

    /** A sensitivity table: the workloads' models and the co-run profiles of those that have one. */
    record Table(SortedMap<String, SensitivityModel> models, SortedMap<String, CorunProfile> profiles)
            implements LogRequest {
        public Table {
            models = new TreeMap<>(models);
            profiles = new TreeMap<>(profiles);
        }

        public static Table of(ModelCatalog catalog) {
            return new Table(new TreeMap<>(catalog.models()), new TreeMap<>(catalog.profiles()));
        }

        public ModelCatalog catalog() {
            return new ModelCatalog(models, profiles);
        }
    }

    /**
     * A level plan (the group leader's, or a lone controller's at the end of its compacted journal): member → level
     * and the level centroids (the hierarchy is rebuilt from them), the member models it was computed for, so the
     * leader knows when the plan has gone stale, and what the members are (workloads, or applications under
     * {@code level-per: application}).
     */
    record Plan(Map<String, Integer> levelOfWorkload, Map<Integer, SensitivityModel> centroids,
                SortedMap<String, SensitivityModel> plannedFor, LevelMode mode) implements LogRequest {
        public Plan {
            levelOfWorkload = new TreeMap<>(levelOfWorkload);
            centroids = new TreeMap<>(centroids);
            plannedFor = new TreeMap<>(plannedFor);
            java.util.Objects.requireNonNull(mode, "mode");
        }

        /** A plan of workloads. */
        public Plan(Map<String, Integer> levelOfWorkload, Map<Integer, SensitivityModel> centroids,
                    SortedMap<String, SensitivityModel> plannedFor) {
            this(levelOfWorkload, centroids, plannedFor, LevelMode.WORKLOAD);
        }
    }

    /**
     * Units of work applications reported, each at the share its application had, for their workloads' estimates
     * (logged under {@code sensitivity: online|blended}, where they decide models in force).
     */
    record Observed(List<WorkloadObservation> units) implements LogRequest {
        public Observed {
            units = List.copyOf(units);
        }
    }

    /** What was learnt of every workload, least recently observed first: a snapshot's replacement for its units. */
    record Learned(List<LearnedWorkload> workloads) implements LogRequest {
        public Learned {
            workloads = List.copyOf(workloads);
        }
    }
}
