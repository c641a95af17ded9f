package io.saba.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.saba.wire.WorkSignals;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An application's work signals as a JSON-lines record ({@code <dir>/<app id>.jsonl}, one line per unit, appended),
 * the data from which the harness calibrates simulated workloads and an estimator can be replayed
 * offline. Every line names the application, its workload and framework, so files can be concatenated.
 *
 * <p>Never costs the job: {@link #append} hands the line to one daemon thread through a bounded queue (a full queue
 * drops the line and counts it), the file is opened on that thread, and an I/O error logs one warning and stops the
 * record, never the job.
 */
public final class SignalsFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SignalsFile.class);
    /** Field names as in the saba.v1 message (end_unix_millis, network_wait_millis, ...), as /status.json has them. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    private static final int QUEUE = 4_096;

    private final Path file;
    private final AppSpec app;
    private final ThreadPoolExecutor writer;
    private final AtomicLong dropped = new AtomicLong();
    private BufferedWriter out;
    private boolean failed;

    private SignalsFile(Path file, AppSpec app) {
        this.file = file;
        this.app = app;
        this.writer = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "saba-signals-file");
            t.setDaemon(true);
            return t;
        }, (r, pool) -> dropped.incrementAndGet());
    }

    /** The record of {@code app} under {@code dir}; nothing touches the disk until the first line. */
    public static SignalsFile in(Path dir, AppSpec app) {
        return new SignalsFile(dir.resolve(fileName(app.appId())), app);
    }

    /** The file an application's record goes to: its id, with anything but letters, digits, '-', '_' and '.' as '_'. */
    static String fileName(String appId) {
        return appId.replaceAll("[^A-Za-z0-9._-]", "_") + ".jsonl";
    }

    public Path file() {
        return file;
    }

    /** Lines not written because the writer fell behind by {@value #QUEUE} lines. */
    public long dropped() {
        return dropped.get();
    }

    /** Queues one line; returns at once. */
    public void append(WorkSignals s) {
        if (!writer.isShutdown()) {
            writer.execute(() -> write(s));
        }
    }

    private void write(WorkSignals s) {
        if (failed) {
            return;
        }
        try {
            if (out == null) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            }
            out.write(JSON.writeValueAsString(line(app, s)));
            out.write('\n');
            out.flush(); // a line per completed unit: few, and the harness may read while the job runs
        } catch (IOException e) {
            failed = true;
            LOG.warn("Saba: cannot write work signals to {} ({}); the record stops here, the job goes on", file,
                    e.toString());
        }
    }

    private void closeFile() {
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            LOG.warn("Saba: cannot close the work-signals record {}: {}", file, e.toString());
        }
    }

    static ObjectNode line(AppSpec app, WorkSignals s) {
        ObjectNode n = JSON.createObjectNode();
        n.put("app_id", app.appId()).put("workload", app.workload()).put("framework", app.framework());
        n.setAll((ObjectNode) JSON.valueToTree(s));
        return n;
    }

    /**
     * Reads a record back, line by line, in file order.
     *
     * @throws IllegalArgumentException naming the file and line of a malformed line
     */
    public static List<WorkSignals> read(Path file) throws IOException {
        List<WorkSignals> out = new ArrayList<>();
        int no = 0;
        for (String text : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            no++;
            if (text.isBlank()) {
                continue;
            }
            try {
                ObjectNode n = (ObjectNode) JSON.readTree(text);
                n.remove(List.of("app_id", "workload", "framework"));
                out.add(JSON.treeToValue(n, WorkSignals.class));
            } catch (IOException | IllegalArgumentException | ClassCastException e) {
                throw new IllegalArgumentException(file + ":" + no + ": not a work-signals line (" + e.getMessage()
                        + ")", e);
            }
        }
        return out;
    }

    /**
     * Like {@link #close()}, but returns at once: the writer's thread writes what is queued, closes the file and
     * ends. For a caller that must not wait, such as a task's thread at its end.
     */
    public void closeWhenWritten() {
        if (!writer.isShutdown()) {
            writer.execute(this::closeFile);
        }
        writer.shutdown();
    }

    /**
     * Writes what is queued, then closes the file, on the writer's thread; waits at most ten seconds (a stuck disk
     * must not hold up the driver's exit; every line already written was flushed).
     */
    @Override
    public void close() {
        closeWhenWritten();
        try {
            if (!writer.awaitTermination(10, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            writer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
