package io.saba.flink;

import java.lang.reflect.Field;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.shuffle.JobShuffleContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's graph as seen from the shuffle master: its own configuration (a per-job {@code saba.workload}) and its name
 * (the workload of a job that sets none). Flink hands the shuffle master only the job's id, but the JobMaster passes
 * itself as the context's gateway and holds the job's plan, whose configuration is the job's (what
 * {@code flink run -D…} or {@code StreamExecutionEnvironment.getExecutionEnvironment(conf)} was given): Flink 1.20's
 * field {@code jobGraph} (a {@code JobGraph}), Flink 2's {@code executionPlan} (a {@code JobGraph} or a
 * {@code StreamGraph}, both with public {@code getJobConfiguration()} and {@code getName()}). Reading it takes
 * reflection; when neither field is there (another Flink version) this logs once and the cluster-wide setting applies.
 */
final class JobGraphs {
    private static final Logger LOG = LoggerFactory.getLogger(JobGraphs.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private JobGraphs() {
    }

    /** A job's own configuration and its name. */
    record Job(Configuration configuration, String name) {
    }

    static Optional<Job> of(JobShuffleContext context) {
        try {
            Object gateway = read(context, "jobMasterGateway");
            Object plan = gateway == null ? null : readAny(gateway, "jobGraph", "executionPlan");
            if (plan == null) {
                return Optional.empty();
            }
            Object conf = plan.getClass().getMethod("getJobConfiguration").invoke(plan);
            Object name = plan.getClass().getMethod("getName").invoke(plan);
            return Optional.of(new Job(conf instanceof Configuration c ? c : null, name == null ? "" : name.toString()));
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("Saba: cannot read jobs' own configuration and names ({}); the cluster-wide {} applies to "
                        + "every job", e.toString(), SabaOptions.WORKLOAD.key());
            }
            return Optional.empty();
        }
    }

    /** The first of the named fields that {@code o} has (Flink versions name the job's plan differently). */
    private static Object readAny(Object o, String... names) throws ReflectiveOperationException {
        NoSuchFieldException missing = null;
        for (String name : names) {
            try {
                return read(o, name);
            } catch (NoSuchFieldException e) {
                missing = missing == null ? e : missing;
            }
        }
        throw missing;
    }

    private static Object read(Object o, String name) throws ReflectiveOperationException {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(o.getClass().getName() + "." + name);
    }
}
