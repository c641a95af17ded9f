package io.saba.flink;

import io.saba.client.AppSpec;
import io.saba.client.SabaClient;
import io.saba.client.SignalsFile;
import io.saba.wire.WorkSignals;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a TaskManager's task work signals go: to the controller, through a Saba client of the TaskManager's own
 * (the JobManager's client registered the job; the controller takes signals for an application of the same tenant,
 * so the TaskManager uses the same {@code saba.controller.token}), and, with {@code saba.signals.path}, to the job's
 * JSON-lines record on this host.
 *
 * <p>Every method returns at once: the client queues (bounded) for its own sender thread, and each record has a
 * writer thread. The client is created, and its way to the controller warmed, when the TaskManager's first task is
 * deployed, so the first report does not pay for the channel's set-up; a TaskManager that never runs a task never
 * connects. A job's record is closed (in the background) when its last task on this TaskManager ends, and opened
 * again, appending, if another one comes.
 */
final class TaskManagerReports implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerReports.class);

    private final SabaSettings settings;
    /** Job id → its tasks on this TaskManager; guarded by this. */
    private final Map<String, Job> jobs = new HashMap<>();
    private SabaClient client;
    private boolean connected;

    /** A job's tasks running on this TaskManager, and its record while they run. */
    private static final class Job {
        int running;
        SignalsFile file;
    }

    TaskManagerReports(SabaSettings settings) {
        this.settings = settings;
    }

    /** A task of {@code jobId} was deployed here. */
    synchronized void taskDeployed(String jobId) {
        connect();
        jobs.computeIfAbsent(jobId, j -> new Job()).running++;
    }

    /**
     * A task of {@code job} ended here; {@code signals} are what it spent and moved, or null when they could not be
     * read.
     */
    synchronized void taskEnded(AppSpec job, WorkSignals signals) {
        Job j = jobs.get(job.appId());
        if (signals != null) {
            if (client != null) {
                client.report(job.appId(), signals);
            }
            if (settings.signalsPath() != null && j != null) {
                if (j.file == null) {
                    j.file = SignalsFile.in(settings.signalsPath(), job);
                }
                j.file.append(signals);
            }
        }
        if (j != null && --j.running <= 0) {
            jobs.remove(job.appId());
            if (j.file != null) {
                j.file.closeWhenWritten();
            }
        }
    }

    /**
     * The controller the JobManager uses: the configured address, else an embedded controller in this JVM. A
     * TaskManager of its own cannot learn the address of the JobManager's embedded controller; it says so once.
     */
    private void connect() {
        if (connected) {
            return;
        }
        connected = true;
        String target = settings.controllerAddress() != null ? settings.controllerAddress()
                : ControllerLink.embeddedInThisJvm();
        if (target == null) {
            LOG.info("Saba: {} is unset and no embedded controller runs in this TaskManager's JVM, so its tasks' work "
                    + "signals are {}", SabaOptions.CONTROLLER_ADDRESS.key(), settings.signalsPath() == null
                    ? "not reported" : "only recorded in " + settings.signalsPath());
            return;
        }
        client = SabaClient.connect(settings.clientConfig(target));
        client.warmUp();
        LOG.info("Saba: this TaskManager reports its tasks' work signals to the controller at {}{}", target,
                settings.signalsPath() == null ? "" : " and records them in " + settings.signalsPath());
    }

    /** Sends what is queued (bounded by the controller timeout) and closes the records. */
    @Override
    public void close() {
        SabaClient c;
        synchronized (this) {
            c = client;
            client = null;
            jobs.values().forEach(j -> {
                if (j.file != null) {
                    j.file.closeWhenWritten();
                }
            });
            jobs.clear();
        }
        if (c != null) {
            c.close();
        }
    }
}
