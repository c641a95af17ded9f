package io.saba.bench;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.saba.proto.v1.BatchedEvent;
import io.saba.proto.v1.ConnectionBatch;
import io.saba.proto.v1.ConnectionEvent;
import io.saba.proto.v1.ControllerGrpc;
import io.saba.proto.v1.EventAck;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The four ways {@link ControllerBench} sends connection events to the controller, one per phase, each measuring
 * what its callers wait: unary calls in a closed loop, unary calls offered on a schedule, the client library's
 * path, and batched ReportConnections calls.
 */
final class EventPaths {
    /** How many paths there are; a phase's index is its path's. */
    static final int COUNT = 4;

    private final ControllerBench.Settings s;
    private final CpuByThread cpuByThread;
    private final PrintStream out;

    /**
     * @param cpuByThread told of the client library's sender threads as they end, so their CPU is counted
     * @param out         where a phase's failed calls are reported
     */
    EventPaths(ControllerBench.Settings s, CpuByThread cpuByThread, PrintStream out) {
        this.s = s;
        this.cpuByThread = cpuByThread;
        this.out = out;
    }

    /** What a phase's senders measured: per-event (or per-call) latency, per-call latency, calls made. */
    record Sent(Histogram latency, Histogram rpc, long calls) {
    }

    /**
     * A channel to the controller; the bench's callbacks only count and release a permit, so they run on the
     * transport thread.
     */
    static ManagedChannel channel(String target) {
        return NettyChannelBuilder.forTarget(target).usePlaintext().directExecutor().maxInboundMessageSize(64 << 20)
                .build();
    }

    /** The events through one phase's path (0-3: the phases' order). */
    Sent send(int path, ManagedChannel ch, List<ManagedChannel> clientChannels, List<ConnectionEvent> events,
              boolean open) throws Exception {
        return switch (path) {
            case 0 -> closedLoop(ch, events, open);
            case 1 -> openLoop(ch, events, open);
            case 2 -> clientPath(clientChannels, events, open);
            default -> batched(ch, events, open);
        };
    }

    private static void call(ControllerGrpc.ControllerStub stub, boolean open, ConnectionEvent e,
                             StreamObserver<EventAck> done) {
        ControllerGrpc.ControllerStub st = stub.withDeadlineAfter(120, TimeUnit.SECONDS);
        if (open) {
            st.connectionOpened(e, done);
        } else {
            st.connectionClosed(e, done);
        }
    }

    private Sent closedLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(s.inFlight());
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        for (ConnectionEvent e : events) {
            slots.acquire();
            long start = System.nanoTime();
            call(stub, open, e, new Done(() -> {
                rec.recordValue(System.nanoTime() - start);
                slots.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, events.size());
    }

    private Sent openLoop(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Recorder rec = new Recorder(3);
        CountDownLatch done = new CountDownLatch(events.size());
        AtomicLong errors = new AtomicLong();
        Semaphore cap = new Semaphore(10_000); // a bound on memory, far above what the target rate needs
        long interval = 1_000_000_000L / s.rate();
        long t0 = System.nanoTime();
        for (int i = 0; i < events.size(); i++) {
            long intended = t0 + i * interval;
            OfferedLoad.sleepUntil(intended);
            cap.acquire();
            call(stub, open, events.get(i), new Done(() -> {
                rec.recordValue(System.nanoTime() - intended);
                cap.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, events.size());
    }

    /** The client library's path at the offered rate (see {@link OfferedLoad}). */
    private Sent clientPath(List<ManagedChannel> channels, List<ConnectionEvent> events, boolean open)
            throws InterruptedException {
        OfferedLoad.Sent sent = new OfferedLoad(s.rate(), s.linger(), cpuByThread::addEnded).offer(channels, events,
                open);
        if (sent.failed() > 0) {
            out.printf("WARNING: %d calls failed in this phase%n", sent.failed());
        }
        return new Sent(sent.perEvent(), sent.perCall(), sent.calls());
    }

    private Sent batched(ManagedChannel ch, List<ConnectionEvent> events, boolean open) throws Exception {
        ControllerGrpc.ControllerStub stub = ControllerGrpc.newStub(ch);
        Semaphore slots = new Semaphore(4);
        Recorder rec = new Recorder(3);
        int calls = (events.size() + s.batch() - 1) / s.batch();
        CountDownLatch done = new CountDownLatch(calls);
        AtomicLong errors = new AtomicLong();
        for (int from = 0; from < events.size(); from += s.batch()) {
            ConnectionBatch.Builder b = ConnectionBatch.newBuilder();
            for (ConnectionEvent e : events.subList(from, Math.min(events.size(), from + s.batch()))) {
                b.addEvents(BatchedEvent.newBuilder().setOpen(open).setEvent(e));
            }
            slots.acquire();
            long start = System.nanoTime();
            stub.withDeadlineAfter(120, TimeUnit.SECONDS).reportConnections(b.build(), new Done(() -> {
                rec.recordValue(System.nanoTime() - start);
                slots.release();
                done.countDown();
            }, errors));
        }
        done.await();
        check(errors);
        Histogram h = rec.getIntervalHistogram();
        return new Sent(h, h, calls);
    }

    /** A benchmark reports failures (e.g. deadlines missed on an overloaded machine) rather than dying. */
    private void check(AtomicLong errors) {
        if (errors.get() > 0) {
            out.printf("WARNING: %d calls failed in this phase%n", errors.get());
        }
    }

    /** Completion callback: counts failures, always runs {@code then}. */
    private static final class Done implements StreamObserver<EventAck> {
        private final Runnable then;
        private final AtomicLong errors;

        Done(Runnable then, AtomicLong errors) {
            this.then = then;
            this.errors = errors;
        }

        @Override
        public void onNext(EventAck v) {
        }

        @Override
        public void onError(Throwable t) {
            if (errors.incrementAndGet() == 1) {
                System.err.println("bench call failed: " + t);
            }
            then.run();
        }

        @Override
        public void onCompleted() {
            then.run();
        }
    }
}
