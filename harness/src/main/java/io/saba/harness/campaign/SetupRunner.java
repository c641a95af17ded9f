package io.saba.harness.campaign;

import java.util.List;
import java.util.function.Consumer;

/**
 * Where a campaign's setups run: worker threads in this JVM ({@link LocalSetupRunner}) or tasks on a Spark
 * cluster ({@link io.saba.harness.campaign.spark.SparkSetupRunner}). Each setup's rows reach {@code done} as soon as
 * the setup (or the batch holding it) finishes, so an interrupted campaign keeps what it finished.
 */
public interface SetupRunner {
    /** Short description for the progress line, e.g. "2 threads" or "spark local-cluster[2,1,1024]". */
    String describe();

    void runAll(TestbedSetups setups, List<Integer> pending, Consumer<List<JobOutcome>> done);
}
