package io.saba.harness.campaign;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.model.ModelChoice;
import io.saba.harness.sim.engine.Mechanisms;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Everything that decides a testbed campaign's results (threads only decide its speed).
 *
 * @param setups   number of cluster setups (500)
 * @param seed     random seed of the setup draws
 * @param model    which fitted models the simulated profile keeps (auto: as {@code saba profile})
 * @param queues   Saba queues per port (8; {@code Integer.MAX_VALUE} = unlimited)
 * @param capacity C_Saba, fraction of the link (1.0)
 * @param threads  worker threads
 * @param out      output folder (CSV, PNG, table, summary; resumed from if it holds a matching run)
 * @param mechanisms what both runs of every setup model beyond ideal fluid sharing (head-of-line blocking, the
 *                 queueing delay of shared queues, a shared pool of cores); {@link Mechanisms#NONE}: none
 * @param allocation how Saba's controller chooses a port's weights (the controller's {@code allocation:})
 */
public record TestbedCampaignConfig(int setups, long seed, ModelChoice model, int queues, double capacity, int threads,
                                    Path out, Mechanisms mechanisms, Allocation allocation) {
    /** The paper's allocation (Eq. 2), without any mechanism. */
    public TestbedCampaignConfig(int setups, long seed, ModelChoice model, int queues, double capacity, int threads,
                                 Path out) {
        this(setups, seed, model, queues, capacity, threads, out, Mechanisms.NONE, Allocation.EQ2);
    }

    /** The identity of the results, written to and checked against the output folder on resume. */
    public String fingerprint() {
        return "testbed setups=" + setups + " seed=" + seed + " model=" + model + " queues=" + queues
                + " capacity=" + capacity + mechanisms.fingerprint()
                + (allocation == Allocation.EQ2 ? "" : " allocation=" + allocation.name().toLowerCase(Locale.ROOT));
    }
}
