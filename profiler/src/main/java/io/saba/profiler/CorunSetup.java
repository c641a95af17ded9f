package io.saba.profiler;

import io.saba.process.CommandRunner;
import io.saba.core.alloc.Allocator;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.table.ProfilingContext;
import io.saba.core.table.SensitivityTable;
import io.saba.core.table.SensitivityTableCodec;
import io.saba.core.table.TableEntry;
import io.saba.testbed.TestbedSpec;
import io.saba.testbed.TestbedWeights;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the corun method needs on the testbed besides Spark: both applications tagged by Saba's shuffle manager, each
 * with its own priority level, and weights on every port for those two levels.
 *
 * <p>The levels come from a dry-run controller on h1 (it hands out levels and DSCPs, programs nothing), as in the
 * Fig. 1b runs with hand-set weights. Its table has two entries only, under keys of their own (so a workload can be
 * profiled beside itself): the profiled workload as insensitive (D = 1) and the competitor as sensitive (D = 1/b).
 * The controller numbers levels by sensitivity, so the profiled workload has the lowest level whether it is alone
 * or the competitor is there, and its DSCP never changes while the competitor comes and goes. The levels are
 * computed here with core's allocation pipeline, the one the controller runs, and checked for that property.
 *
 * <p>Both applications run with {@code spark.saba.fallback=NEVER}: traffic left in the default class because the
 * controller did not answer would make a wrong sample, so such a run fails instead.
 */
public final class CorunSetup implements AutoCloseable {
    /** The controller's table keys: {@code spark.saba.workload} of the profiled workload and of the competitor. */
    public static final String PROFILED_KEY = "corun-profiled";
    public static final String COMPETITOR_KEY = "corun-competitor";
    /** The controller's gRPC port on h1 (beside 7070, which the Fig. 1b runs and the campaign use). */
    public static final int CONTROLLER_PORT = 7075;
    static final String SHUFFLE_MANAGER = "org.apache.spark.shuffle.saba.SabaShuffleManager";
    private static final int LEVELS = 8;

    private final TestbedSpec spec;
    private final Path shuffleJar;
    private final TestbedCorunWeights weights;
    private final TestbedController controller;

    private CorunSetup(TestbedSpec spec, Path shuffleJar, TestbedCorunWeights weights, TestbedController controller) {
        this.spec = spec;
        this.shuffleJar = shuffleJar;
        this.weights = weights;
        this.controller = controller;
    }

    /**
     * Writes the controller's table and configuration to {@code dir}, starts it on h1 and returns once it serves.
     *
     * @param controllerCommand the {@code saba controller} command line, without --config
     * @throws IllegalArgumentException if the Spark home has no Saba shuffle jar beside it
     */
    public static CorunSetup start(TestbedSpec spec, WorkloadLauncher launcher, List<String> controllerCommand,
                                   CommandRunner shell, Path dir) throws IOException {
        Path jar = launcher.sabaShuffleJar().orElseThrow(() -> new IllegalArgumentException("--method corun: no Saba "
                + "shuffle jar in " + launcher.sparkHome().resolve("jars") + " or " + WorkloadLauncher.SHUFFLE_JAR_DIR
                + "; build it "
                + "with `mvn -B -q -DskipTests package`"));
        Map<String, Integer> levels = levels();
        Files.createDirectories(dir);
        Path table = dir.resolve("controller-table.json");
        Files.writeString(table, SensitivityTableCodec.toJson(controllerTable()), StandardCharsets.UTF_8);
        Path config = dir.resolve("controller.yaml");
        Files.writeString(config, String.format(Locale.ROOT, """
                # corun profiling: hands out levels and DSCPs only; the profiler sets the weights
                listen: %s:%d
                topology: {file: %s, host-queues: 8}
                table: %s
                backend: dry-run
                c-saba: %s
                """, spec.address(1), CONTROLLER_PORT, TestbedSpec.stateDir(spec.name()).resolve("topology.yaml"),
                table.toAbsolutePath(), TestbedCorunWeights.C_SABA), StandardCharsets.UTF_8);
        TestbedCorunWeights w = new TestbedCorunWeights(spec, new TestbedWeights(shell, TestbedWeights.ports(spec),
                TestbedCorunWeights.C_SABA), levels.get(PROFILED_KEY), levels.get(COMPETITOR_KEY));
        TestbedController c = TestbedController.start(spec, 1, controllerCommand, config,
                dir.resolve("controller.log"), 90);
        return new CorunSetup(spec, jar, w, c);
    }

    /** The controller's two entries: the profiled workload insensitive, the competitor sensitive. */
    static SensitivityTable controllerTable() {
        ProfilingContext ctx = new ProfilingContext(null, null, null, null,
                "corun profiling's controller: only the order of the two levels matters");
        return SensitivityTable.empty()
                // D = 1 as a polynomial of degree 1: a table stores degrees 1 to 3
                .with(new TableEntry(PROFILED_KEY, SensitivityModel.of(1, 0), 1, List.of(), ctx))
                .with(new TableEntry(COMPETITOR_KEY, SensitivityModel.inverse(0, 1), 1, List.of(), ctx));
    }

    /**
     * The levels the controller gives the two keys when both are registered; the profiled workload's must be the
     * same when it is alone (the competitor restarts during a run).
     */
    static Map<String, Integer> levels() {
        SensitivityTable t = controllerTable();
        Map<String, SensitivityModel> both = new LinkedHashMap<>();
        t.entries().forEach((k, e) -> both.put(k, e.model()));
        Allocator allocator = new Allocator(new MinSlowdownSolver(), LEVELS, TestbedCorunWeights.C_SABA);
        Map<String, Integer> together = allocator.planLevels(both, LEVELS).levelOfWorkload();
        int alone = allocator.planLevels(Map.of(PROFILED_KEY, both.get(PROFILED_KEY)), LEVELS).levelOfWorkload()
                .get(PROFILED_KEY);
        if (alone != together.get(PROFILED_KEY) || together.get(PROFILED_KEY).equals(together.get(COMPETITOR_KEY))) {
            throw new IllegalStateException("corun profiling needs the profiled workload on one level whether or not "
                    + "its competitor is there, and the competitor on another; the controller gives " + together
                    + " together and " + alone + " alone");
        }
        return together;
    }

    /** Sets each level's weights; 100 % is the plain link. */
    public TestbedCorunWeights weights() {
        return weights;
    }

    /** Saba's shuffle manager for a driver registering as {@code key}, and its jar for the executors. */
    public Map<String, String> sabaConf(String key) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("spark.shuffle.manager", SHUFFLE_MANAGER);
        c.put("spark.saba.controller.address", spec.address(1) + ":" + CONTROLLER_PORT);
        c.put("spark.saba.workload", key);
        c.put("spark.saba.fallback", "NEVER");
        c.put("spark.executor.extraClassPath", shuffleJar.toString());
        return c;
    }

    /** What a driver needs on its class path beyond the Spark home: the shuffle manager is created at its start. */
    public List<Path> driverClassPath() {
        return List.of(shuffleJar);
    }

    /** The competitor loop for this command, checking that both queues carry bytes in every run. */
    public CompetitorLoop competitor(String name, List<String> command, Map<String, String> environment) {
        return new CompetitorLoop(name, command, environment, weights::queueBytes,
                Map.of(TestbedCorunWeights.PROFILED_QUEUE, "the profiled workload",
                        TestbedCorunWeights.COMPETITOR_QUEUE, "the competitor " + name));
    }

    /** Stops the controller and puts every port back to the plain link. */
    @Override
    public void close() {
        try {
            controller.close();
        } finally {
            weights.reset();
        }
    }
}
