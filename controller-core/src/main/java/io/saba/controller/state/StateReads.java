package io.saba.controller.state;

import io.saba.controller.estimate.SensitivityMode;
import io.saba.controller.estimate.WorkloadEstimateView;
import io.saba.core.alloc.LevelPlan;
import io.saba.core.model.SensitivityModel;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What may be read of a controller's state, and nothing that changes it: what its replica hands to a read under its
 * lock ({@code Replica.read}), as {@link ControllerState} is not thread-safe. Every answer is a value or a copy, so
 * it stays valid once the lock is released.
 */
public interface StateReads {
    int appCount();

    long connectionCount();

    /** Open connections waiting for a route the fabric does not have yet (counted in {@link #connectionCount} too). */
    long unroutedCount();

    /** Every registered application, its remaining lease counted from {@code nowNanos}. */
    List<AppView> views(boolean withConnections, long nowNanos);

    /** One registered application with its connections, or null when it is not registered. */
    AppView view(String appId, long nowNanos);

    /** A recently deregistered application's workload and tenant (its last units still count), or null. */
    ControllerState.Departed departed(String appId);

    /** Which model the allocator uses for a workload. */
    SensitivityMode sensitivity();

    /** Every workload that reported units: its model's source, estimate and drift, by workload key. */
    Map<String, WorkloadEstimateView> estimates();

    /** The workload's model in force: the table's (or the default), or the one learnt from its units. */
    SensitivityModel modelOf(String workload);

    /** The level plan in force. */
    LevelPlan plan();

    /** The model of every workload some application runs: what a level plan per workload is computed from. */
    SortedMap<String, SensitivityModel> workloadModels();

    /**
     * What a level plan is computed from: every workload some application runs with its model, or under
     * {@code level-per: application} every application with its workload's model.
     */
    SortedMap<String, SensitivityModel> memberModels();
}
