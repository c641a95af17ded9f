package io.saba.controller.journal;

import io.saba.controller.log.LogCodec;
import io.saba.controller.log.LogRequest;
import io.saba.controller.log.MutationCodec;
import io.saba.controller.state.Mutation;
import io.saba.core.files.DurableFile;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lone controller's durable state: an append-only file of the {@link LogRequest}s its log applied, replayed at
 * start and then compacted into the requests that rebuild the live state (what {@code LocalLog} does with it).
 *
 * <p>Why a journal and not an embedded store: the state is small and changes by tiny events at a high rate; an
 * append is one buffered write, replay reuses the exact code path of live updates, and there is no dependency to
 * shade or to migrate. Compaction bounds the file.
 *
 * <p>Record framing: {@code int length, int crc32, payload}; the payload is {@link #REQUEST} and a request in
 * {@link LogCodec}'s form. Journals written before requests were logged hold bare {@link Mutation}s (payloads
 * starting with a mutation type, 1..5); replay reads them as the calls they came from, and the first compaction
 * rewrites them. A torn or corrupt tail (a crash mid-write) fails its length or CRC check; replay stops there and
 * truncates the file so new records follow the last good one.
 *
 * <p>Appends and commits are separate, so that a log can append (and apply) under its lock and commit outside it:
 * {@link #append} encodes a record into memory and returns its sequence number; {@link #commit(long)} returns once
 * that record has been handed to the OS (and fsynced under ALWAYS). One thread writes at a time, everything appended
 * so far in one write, so requests that arrive while a write is under way share the next one (group commit), and a
 * write that the disk holds up (ext4 blocks appends while a concurrent fsync commits its journal, hundreds of
 * milliseconds on a busy disk) holds up only the requests it carries, not every request's turn at the log's lock.
 * The order of records is the order of {@link #append} calls, which the log makes under its own lock.
 */
public final class Journal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    private static final String FILE = "journal.log";
    private static final int MAX_RECORD = 64 << 20;
    /** First byte of a request record: outside the mutation types of older journals. */
    static final byte REQUEST = 0x40;

    private final Path dir;
    private final Path file;
    private final FsyncPolicy policy;
    private final ScheduledExecutorService syncer;
    private final JournalLock lock;
    private boolean closed;
    /** One write (or compaction) at a time; taken before this journal's own monitor, never after. */
    private final Object writeLock = new Object();
    /** The file appended to (replaced by a compaction); null until the first write. */
    private volatile FileChannel channel;
    /** Records appended and not yet taken by a write. Guarded by this journal's monitor. */
    private ByteArrayOutputStream pending = new ByteArrayOutputStream(1 << 16);
    /** The records a write is handing to the OS; swapped with {@link #pending}. Guarded by {@link #writeLock}. */
    private ByteArrayOutputStream writing = new ByteArrayOutputStream(1 << 16);
    private final ByteArrayOutputStream scratch = new ByteArrayOutputStream(256);
    private final DataOutputStream scratchOut = new DataOutputStream(scratch);
    private final CRC32 crc = new CRC32();
    private long appendsSinceCompaction;
    /** Sequence number of the last record appended. Guarded by this journal's monitor. */
    private long appended;
    /** Sequence number of the last record handed to the OS (or written into a compacted file). */
    private volatile long written;
    private volatile boolean dirtyOnDisk;

    /**
     * Opens (creating) the journal in {@code dir}, first taking the directory's {@link JournalLock}, which it holds
     * until {@link #close}. Call {@link #replay()} first, then {@link #compact}.
     *
     * @param fsyncMillis the INTERVAL policy's period
     * @throws io.saba.controller.StartupException when another controller holds the directory
     */
    public Journal(Path dir, FsyncPolicy policy, long fsyncMillis) {
        this.dir = dir;
        this.file = dir.resolve(FILE);
        this.policy = policy;
        this.lock = JournalLock.acquire(dir);
        if (policy == FsyncPolicy.INTERVAL) {
            syncer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "saba-journal-fsync");
                t.setDaemon(true);
                return t;
            });
            syncer.scheduleWithFixedDelay(this::forceQuietly, fsyncMillis, fsyncMillis, TimeUnit.MILLISECONDS);
        } else {
            syncer = null;
        }
    }

    public Path file() {
        return file;
    }

    /** Reads every intact record; truncates a torn tail. */
    public List<LogRequest> replay() {
        List<LogRequest> out = new ArrayList<>();
        Map<String, String> tenantOfApp = new HashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        long good = 0;
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
            while (true) {
                int len;
                try {
                    len = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                int sum = in.readInt();
                if (len <= 0 || len > MAX_RECORD) {
                    LOG.warn("journal {}: bad record length {} at byte {}; ignoring the rest", file, len, good);
                    break;
                }
                byte[] payload = new byte[len];
                in.readFully(payload);
                CRC32 c = new CRC32();
                c.update(payload);
                if ((int) c.getValue() != sum) {
                    LOG.warn("journal {}: checksum mismatch at byte {}; ignoring the rest", file, good);
                    break;
                }
                out.add(read(payload, tenantOfApp));
                good += 8 + len;
            }
        } catch (EOFException e) {
            LOG.warn("journal {}: torn record at byte {} (crash during a write); ignoring it", file, good);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read journal " + file, e);
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (ch.size() > good) {
                ch.truncate(good);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot truncate journal " + file, e);
        }
        return out;
    }

    /**
     * Replaces the journal by {@code state} atomically (write temp, fsync, rename, fsync directory) and reopens it.
     * {@code state} must include every record appended so far (the log compacts under the lock it appends under):
     * those not yet written are dropped, as the compacted file holds their effect, and count as committed.
     */
    public void compact(List<LogRequest> state) {
        synchronized (writeLock) {
            synchronized (this) {
                pending.reset();
                writing.reset();
                compactFile(state);
                written = appended;
            }
        }
    }

    private void compactFile(List<LogRequest> state) {
        Path tmp = dir.resolve(FILE + ".tmp");
        try {
            closeStream();
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
                 DataOutputStream o = new DataOutputStream(
                         new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16))) {
                for (LogRequest r : state) {
                    writeRecord(r, o);
                }
                o.flush();
                ch.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory();
            open();
            appendsSinceCompaction = 0;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot compact journal " + file, e);
        }
    }

    /**
     * Keeps one record in memory; {@link #commit(long)} with the returned sequence number makes it durable under the
     * policy.
     */
    public synchronized long append(LogRequest r) {
        try {
            writeRecord(r, pending);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to journal " + file, e);
        }
        appendsSinceCompaction++;
        return ++appended;
    }

    /** Commits every record appended so far (see {@link #commit(long)}). */
    public void commit() {
        long upTo;
        synchronized (this) {
            upTo = appended;
        }
        commit(upTo);
    }

    /**
     * Called before a request is acknowledged: returns once the records up to sequence number {@code upTo} are in
     * the OS (and fsynced under ALWAYS). Whoever writes takes every record appended so far, so a caller whose
     * record another write carried returns at once.
     */
    public void commit(long upTo) {
        if (written >= upTo) {
            return;
        }
        synchronized (writeLock) {
            if (written >= upTo) {
                return;
            }
            long through;
            synchronized (this) {
                ByteArrayOutputStream full = pending;
                pending = writing;
                writing = full;
                through = appended;
            }
            try {
                if (channel == null) {
                    open();
                }
                writing.writeTo(Channels.newOutputStream(channel));
                if (policy == FsyncPolicy.ALWAYS) {
                    channel.force(false);
                } else {
                    dirtyOnDisk = true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write journal " + file, e);
            } finally {
                writing.reset();
            }
            written = through;
        }
    }

    public long appendsSinceCompaction() {
        return appendsSinceCompaction;
    }

    private void writeRecord(LogRequest r, OutputStream o) throws IOException {
        scratch.reset();
        scratchOut.writeByte(REQUEST);
        LogCodec.writeRequest(r, scratchOut);
        scratchOut.flush();
        crc.reset();
        byte[] bytes = scratch.toByteArray();
        crc.update(bytes);
        writeInt(o, bytes.length);
        writeInt(o, (int) crc.getValue());
        o.write(bytes);
    }

    /** A record's request; a bare mutation of an older journal becomes the call it came from. */
    private static LogRequest read(byte[] payload, Map<String, String> tenantOfApp) throws IOException {
        if (payload[0] == REQUEST) {
            return LogCodec.readRequest(new DataInputStream(new ByteArrayInputStream(payload, 1, payload.length - 1)));
        }
        Mutation m = MutationCodec.read(payload);
        if (m instanceof Mutation.Register r) {
            tenantOfApp.put(r.appId(), r.tenant());
            return new LogRequest.Call(r.tenant(), LogRequest.Kind.REGISTER, List.of(m));
        }
        String tenant = tenantOfApp.getOrDefault(m.appId(), "");
        return new LogRequest.Call(tenant, m instanceof Mutation.Deregister ? LogRequest.Kind.DEREGISTER
                : LogRequest.Kind.EVENT, List.of(m));
    }

    private static void writeInt(OutputStream o, int v) throws IOException {
        o.write(v >>> 24);
        o.write(v >>> 16);
        o.write(v >>> 8);
        o.write(v);
    }

    private void open() throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    private void forceQuietly() {
        if (!dirtyOnDisk) {
            return;
        }
        dirtyOnDisk = false;
        try {
            FileChannel ch = channel;
            if (ch != null && ch.isOpen()) {
                ch.force(false);
            }
        } catch (IOException e) {
            LOG.warn("journal fsync failed: {}", e.toString());
        }
    }

    private void forceDirectory() {
        DurableFile.forceDirectory(dir);
    }

    private void closeStream() throws IOException {
        FileChannel ch = channel;
        if (ch != null) {
            ch.force(false);
            ch.close();
            channel = null;
        }
    }

    /** The directory the journal (and what else the controller keeps beside it) lives in; this journal holds it. */
    public Path dir() {
        return dir;
    }

    /** Writes what is appended, closes and releases the directory; a second call does nothing. */
    @Override
    public void close() {
        synchronized (writeLock) { // the write lock first, as everywhere: commit takes it, then this monitor
            if (closed) {
                return;
            }
            closed = true;
            if (syncer != null) {
                syncer.shutdownNow();
            }
            try {
                commit();
                closeStream();
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("journal close failed: {}", e.toString());
            } finally {
                lock.close();
            }
        }
    }
}
