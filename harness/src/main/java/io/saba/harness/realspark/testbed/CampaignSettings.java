package io.saba.harness.realspark.testbed;

import io.saba.harness.realspark.Placement;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * What a real-Spark campaign runs.
 *
 * @param setups            setups to run (setup i depends on the seed and i only, so a campaign can be extended)
 * @param seed              random seed of the setup draws
 * @param out               output folder (jobs.csv, setups.csv, summary.txt, the CDF, logs/)
 * @param table             sensitivity table the controller allocates with; its workloads are the ones drawn
 * @param hosts             testbed hosts: h1 runs the drivers and the controller, h2..hN the executors
 * @param linkRateBps       every link's rate
 * @param scale             workload scale profile (tiny, small, paper)
 * @param allocation        the controller's allocation: corun or eq2, or fair (equal weights on Saba's levels: the
 *                          per-application fair baseline)
 * @param name              testbed name (namespaces saba-NAME-*)
 * @param subnet            the testbed's /24 prefix
 * @param knownWorkloads    the workloads a driver can run (a table naming others is refused)
 * @param sparkHome         the workloads' Spark home, or null to look in the usual places
 * @param controllerCommand the command that runs {@code saba controller} (the campaign appends --config FILE)
 * @param runTimeout        a run (all jobs of a setup under one treatment) still going after this is stopped and its
 *                          unfinished jobs recorded as failed
 * @param sensitivity       the controller's {@code sensitivity:} (table, online, blended): which model it allocates with
 * @param controllerTable   whether the controller is given the table; without it, every workload starts from the
 *                          default model (the table still says which workloads are drawn)
 * @param fabric            the controller's backend: {@code linux} programs every port (Saba), {@code dry-run}
 *                          computes and logs the same allocation but leaves every port one FIFO, as in the baseline:
 *                          the "tagged" control, which pays everything Saba's run pays (shuffle manager, tagging,
 *                          registration, the controller's CPU on the testbed's cores) except the weights
 */
public record CampaignSettings(int setups, long seed, Path out, Path table, int hosts, long linkRateBps, String scale,
                               String allocation, String name, String subnet, List<String> knownWorkloads,
                               Path sparkHome, List<String> controllerCommand, Duration runTimeout,
                               String sensitivity, boolean controllerTable, String fabric) {
    /** C_Saba of the controller and its Linux backend (scripts/fig1b-testbed.sh's default C_SABA). */
    public static final double C_SABA = 0.9;
    /** Input and shuffle partitions of every job (the workloads' and the profiler's default). */
    public static final int PARTITIONS = 4;
    /** Heap of each executor; a worker offers this times the most jobs that can share its host. */
    public static final int EXECUTOR_MEMORY_MB = 768;

    public CampaignSettings {
        if (setups < 1) {
            throw new IllegalArgumentException("--setups must be at least 1, got " + setups);
        }
        if (hosts < 3 || hosts > Placement.MAX_HOSTS) {
            throw new IllegalArgumentException("--hosts must be 3.." + Placement.MAX_HOSTS + " (h1 runs the drivers "
                    + "and the controller, h2..hN the executors), got " + hosts);
        }
        if (!List.of("corun", "eq2", "fair").contains(allocation)) {
            throw new IllegalArgumentException("--allocation must be corun, eq2 or fair, got '" + allocation + "'");
        }
        if (!List.of("table", "online", "blended").contains(sensitivity)) {
            throw new IllegalArgumentException("--sensitivity must be table, online or blended, got '" + sensitivity
                    + "'");
        }
        if (!List.of("linux", "dry-run").contains(fabric)) {
            throw new IllegalArgumentException("--fabric must be linux or dry-run, got '" + fabric + "'");
        }
        if (!List.of("tiny", "small", "paper").contains(scale)) {
            throw new IllegalArgumentException("--scale must be tiny, small or paper, got '" + scale + "'");
        }
        knownWorkloads = List.copyOf(knownWorkloads);
        controllerCommand = List.copyOf(controllerCommand);
    }

    /**
     * Whether the controller learns across the campaign's Saba runs: under {@code online} and {@code blended} it keeps
     * its journal in the output folder, so what it learnt of a workload in one run is where it starts the next, as a
     * controller that stays up while jobs come and go would (a fresh controller per run would start every job from
     * its prior).
     */
    public boolean learnsAcrossRuns() {
        return !sensitivity.equals("table");
    }

    /** Whether the Saba run's controller programs the testbed's ports (false: the tagged control). */
    public boolean enforces() {
        return fabric.equals("linux");
    }

    /**
     * The identity of the results, checked on resume (the number of setups is not part of it: more setups extend a
     * campaign). The controller's sensitivity, table and fabric are named only when they differ from the default
     * (table, given, linux), so the folders of earlier campaigns keep their identity.
     */
    public String fingerprint(List<String> workloads, String tableDigest) {
        String models = sensitivity.equals("table") && controllerTable ? ""
                : " sensitivity=" + sensitivity + " controller-table=" + (controllerTable ? "yes" : "none");
        return String.format(Locale.ROOT, "real-spark testbed seed=%d hosts=%d link-rate=%d scale=%s allocation=%s "
                + "c-saba=%s partitions=%d executor-memory=%dm workloads=%s table-sha256=%s%s%s", seed, hosts,
                linkRateBps, scale, allocation, C_SABA, PARTITIONS, EXECUTOR_MEMORY_MB, String.join(",", workloads),
                tableDigest, models, enforces() ? "" : " fabric=" + fabric);
    }
}
