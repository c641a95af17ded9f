package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The client library's path at a fixed offered rate: event i is handed at its intended time to client i mod
 * clients, whose sender works as the library's sender thread does (one blocking ReportConnections in flight; the
 * first event queued and what follows it within the linger, at most {@link #MAX_BATCH}). Each event's latency runs
 * from its intended time to the acknowledgement of the call that carried it, so a stall is charged to every event it
 * delayed (no coordinated omission). One client per channel: each plugin process has a connection of its own.
 */
final class OfferedLoad {
    /** The client library's sender: events per call at most (ClientConfig's default batch). */
    static final int MAX_BATCH = 1_000;

    /** What the senders measured: per-event latency, per-call latency, calls made, calls failed. */
    record Sent(Histogram perEvent, Histogram perCall, long calls, long failed) {
    }

    private final int rate;
    private final Duration linger;
    private final Runnable senderEnding;

    /**
     * @param rate         events per second offered, over all clients
     * @param senderEnding run by each sender thread as it ends (a benchmark that reads threads' CPU clocks keeps
     *                     theirs)
     */
    OfferedLoad(int rate, Duration linger, Runnable senderEnding) {
        this.rate = rate;
        this.linger = linger;
        this.senderEnding = senderEnding;
    }

    /** Offers every event (opened or closed), one client per channel, and returns once all are acknowledged. */
    Sent offer(List<ManagedChannel> channels, List<ConnectionEvent> events, boolean open)
            throws InterruptedException {
        int n = channels.size();
        Recorder perEvent = new Recorder(3);
        Recorder perCall = new Recorder(3);
        AtomicLong failed = new AtomicLong();
        AtomicLong calls = new AtomicLong();
        List<BlockingQueue<Offered>> queues = new ArrayList<>();
        List<Thread> senders = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            BlockingQueue<Offered> q = new LinkedBlockingQueue<>();
            queues.add(q);
            int share = (events.size() - c + n - 1) / n;
            ControllerGrpc.ControllerBlockingStub stub = ControllerGrpc.newBlockingStub(channels.get(c));
            Thread t = new Thread(() -> send(q, share, stub, open, perEvent, perCall, failed, calls),
                    "bench-client-" + c);
            t.setDaemon(true);
            senders.add(t);
            t.start();
        }
        long interval = 1_000_000_000L / rate;
        long t0 = System.nanoTime();
        for (int i = 0; i < events.size(); i++) {
            long intended = t0 + i * interval;
            sleepUntil(intended);
            queues.get(i % n).add(new Offered(events.get(i), intended));
        }
        for (Thread t : senders) {
            t.join();
        }
        return new Sent(perEvent.getIntervalHistogram(), perCall.getIntervalHistogram(), calls.get(), failed.get());
    }

    /** An event handed to a client at its intended time. */
    private record Offered(ConnectionEvent event, long intendedNanos) {
    }

    /** One client's sender thread. */
    private void send(BlockingQueue<Offered> q, int share, ControllerGrpc.ControllerBlockingStub stub, boolean open,
                      Recorder perEvent, Recorder perCall, AtomicLong failed, AtomicLong calls) {
        long lingerNanos = linger.toNanos();
        int left = share;
        List<Offered> ops = new ArrayList<>();
        try {
            while (left > 0) {
                ops.clear();
                ops.add(q.take());
                long until = System.nanoTime() + lingerNanos;
                while (ops.size() < MAX_BATCH) {
                    q.drainTo(ops, MAX_BATCH - ops.size());
                    long wait = until - System.nanoTime();
                    if (wait <= 0 || ops.size() >= MAX_BATCH) {
                        break;
                    }
                    Offered next = q.poll(wait, TimeUnit.NANOSECONDS);
                    if (next == null) {
                        break;
                    }
                    ops.add(next);
                }
                ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
                for (Offered o : ops) {
                    b.addEvents(BatchedEvent.newBuilder().setOpen(open).setEvent(o.event()));
                }
                long start = System.nanoTime();
                try {
                    stub.withDeadlineAfter(120, TimeUnit.SECONDS).reportConnections(b.build());
                } catch (StatusRuntimeException e) {
                    if (failed.incrementAndGet() == 1) {
                        System.err.println("bench call failed: " + e);
                    }
                }
                long end = System.nanoTime();
                calls.incrementAndGet();
                perCall.recordValue(end - start);
                for (Offered o : ops) {
                    perEvent.recordValue(end - o.intendedNanos());
                }
                left -= ops.size();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            senderEnding.run();
        }
    }

    /**
     * Waits until {@code intended}, sleeping rather than spinning: a spinning scheduler would take one of the two
     * cores from the controller it measures. Latency is charged from the intended time, so oversleeping by the
     * timer's slack delays the send but not the clock.
     */
    static void sleepUntil(long intended) {
        long wait = intended - System.nanoTime();
        if (wait > 0) {
            LockSupport.parkNanos(wait);
        }
    }
}
