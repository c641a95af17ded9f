package io.saba.flink;

import java.lang.reflect.Field;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.shuffle.JobShuffleContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's graph as seen from the shuffle master: its own configuration (a per-job {@code saba.workload}) and its name
 * (the workload of a job that sets none). Flink hands the shuffle master only the job's id, but Flink 1.20's JobMaster
 * passes itself as the context's gateway and holds the job graph, whose configuration is the job's (what
 * {@code flink run -D…} or {@code StreamExecutionEnvironment.getExecutionEnvironment(conf)} was given). Reading it
 * takes reflection; when the fields are not there (another Flink version) this logs once and the cluster-wide setting
 * applies.
 */
final class JobGraphs {
    private static final Logger LOG = LoggerFactory.getLogger(JobGraphs.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private JobGraphs() {
    }

    static Optional<JobGraph> of(JobShuffleContext context) {
        try {
            Object gateway = read(context, "jobMasterGateway");
            Object graph = gateway == null ? null : read(gateway, "jobGraph");
            return graph instanceof JobGraph g ? Optional.of(g) : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("Saba: cannot read jobs' own configuration and names ({}); the cluster-wide {} applies to "
                        + "every job", e.toString(), SabaOptions.WORKLOAD.key());
            }
            return Optional.empty();
        }
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
