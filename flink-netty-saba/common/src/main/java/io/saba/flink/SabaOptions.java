package io.saba.flink;

import io.saba.client.FallbackPolicy;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The extension's configuration keys, all read from the cluster configuration ({@code config.yaml}). The JobManager
 * reads the controller keys; JobManager and TaskManagers both read {@link #DSCP_MAP}, so it must be the same
 * cluster-wide. The TaskManagers read the signals keys, and with them the controller's address, token and TLS
 * trust.
 *
 * <p>Every key Spark has too is the Spark key without its {@code spark.} prefix, with the same meaning, default and
 * value syntax (durations in each engine's syntax; see spark-shuffle-saba's {@code SabaConf}).
 */
public final class SabaOptions {
    private SabaOptions() {
    }

    public static final ConfigOption<String> CONTROLLER_ADDRESS = ConfigOptions.key("saba.controller.address")
            .stringType().noDefaultValue()
            .withDescription("host:port of the Saba controller. Unset: the JobManager starts an embedded "
                    + "controller (see saba.controller.embedded-config).");

    public static final ConfigOption<String> EMBEDDED_CONFIG = ConfigOptions.key("saba.controller.embedded-config")
            .stringType().noDefaultValue()
            .withDescription("Controller YAML file for the embedded controller (the standalone controller's format), "
                    + "as spark.saba.controller.embedded-config. Unset: a loopback, memory-only, dry-run controller "
                    + "with this machine as its one host, which suits a single machine.");

    public static final ConfigOption<String> WORKLOAD = ConfigOptions.key("saba.workload")
            .stringType().defaultValue("")
            .withDescription("Sensitivity-table key of the jobs (e.g. 'pagerank'). A job's own configuration may set "
                    + "it too (flink run -Dsaba.workload=...; read from the JobMaster, Flink 1.20) and wins. Unset "
                    + "everywhere: the job's name lower-cased with runs of other characters than a-z0-9 turned into "
                    + "'-', or 'default', as in Spark; unknown keys get the controller's default model.");

    public static final ConfigOption<Duration> CONTROLLER_TIMEOUT = ConfigOptions.key("saba.controller.timeout")
            .durationType().defaultValue(Duration.ofSeconds(2))
            .withDescription("Deadline of each controller call, as spark.saba.controller.timeout. Under "
                    + "saba.fallback NEVER also the longest the JobMaster waits for a new job's registration before "
                    + "failing it (Spark has spark.saba.register.timeout for that).");

    public static final ConfigOption<Duration> REGISTER_WAIT = ConfigOptions.key("saba.controller.register-wait")
            .durationType().defaultValue(Duration.ofSeconds(1))
            .withDescription("How long a new job's partition registrations may wait for its first level, so that "
                    + "its first partitions already carry it; the JobMaster's thread never waits. 0: never wait "
                    + "(partitions registered before the answer use level 0). Ignored under the adaptive scheduler, "
                    + "which requires registrations to complete at once.");

    public static final ConfigOption<String> FALLBACK = ConfigOptions.key("saba.fallback")
            .stringType().defaultValue(FallbackPolicy.AUTO.name())
            .withDescription("ALWAYS: plain Flink shuffle, no controller, no tagging (an off switch that keeps the "
                    + "configuration). AUTO: a controller that is away, slow or killed leaves jobs running at the "
                    + "default class, one warning per outage. NEVER: fail fast; a job whose registration the "
                    + "controller has not accepted within saba.controller.timeout fails. Same as spark.saba.fallback.");

    /** @deprecated use {@link #FALLBACK}: {@code true} is {@code NEVER}, {@code false} is {@code AUTO} */
    @Deprecated
    public static final ConfigOption<Boolean> FAIL_FAST = ConfigOptions.key("saba.fail-fast")
            .booleanType().noDefaultValue()
            .withDescription("Deprecated: saba.fallback NEVER (true) or AUTO (false). Ignored when saba.fallback "
                    + "is set.");

    public static final ConfigOption<String> TOKEN = ConfigOptions.key("saba.controller.token")
            .stringType().noDefaultValue()
            .withDescription("Bearer token for a controller with token authentication.");

    public static final ConfigOption<String> TLS_TRUST = ConfigOptions.key("saba.controller.tls-trust")
            .stringType().noDefaultValue()
            .withDescription("PEM file of the certificate(s) to trust for TLS to the controller, on the JobManager and "
                    + "every TaskManager. Unset: plaintext.");

    public static final ConfigOption<String> DSCP_MAP = ConfigOptions.key("saba.dscp-map")
            .stringType().noDefaultValue()
            .withDescription("level:dscp pairs, e.g. '0:0,1:8,2:16'. Unset: class selectors CS0..CS7.");

    public static final ConfigOption<Boolean> SIGNALS_ENABLED = ConfigOptions.key("saba.signals.enabled")
            .booleanType().defaultValue(true)
            .withDescription("Each TaskManager reports each task's work signals (busy, idle and back-pressured time, "
                    + "bytes read and written) to the controller when the task ends, as spark.saba.signals.enabled "
                    + "reports Spark's stages. Read by the TaskManagers.");

    public static final ConfigOption<String> SIGNALS_PATH = ConfigOptions.key("saba.signals.path")
            .stringType().noDefaultValue()
            .withDescription("A directory: each TaskManager also appends its tasks' work signals to "
                    + "DIR/<job id>.jsonl on its own host, one JSON line per task (created on the first line), as "
                    + "spark.saba.signals.path does. Unset: no record.");

    public static final ConfigOption<Boolean> TAG_CONNECTIONS = ConfigOptions.key("saba.tag-connections")
            .booleanType().defaultValue(true)
            .withDescription("false: register jobs but leave IP_TOS alone (for fabrics that classify by port).");
}
