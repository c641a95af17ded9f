package io.saba.harness.packet;

import io.saba.harness.sim.workload.JobSpec;
import io.saba.harness.sim.workload.StageSpec;
import io.saba.harness.sim.workload.WorkloadSpec;
import io.saba.rperf.switchmodel.HostNode;
import io.saba.rperf.switchmodel.LeafSpine;
import io.saba.rperf.switchmodel.Network;
import io.saba.rperf.switchmodel.QueuePair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jobs made of synchronous rounds, run packet by packet on a {@link LeafSpine} fabric. A job has one instance per
 * host of its {@link JobSpec}; every round (a stage run of its workload) computes on every instance, exchanges data
 * all-to-all, and ends when the computation is done and every instance has received all its data; the next round
 * starts then. So a job has a completion time, and data that arrives late delays the whole job.
 *
 * <p>A round is the fluid simulator's stage run, the same numbers: with n instances, dataset scale d and P profiled
 * nodes, the computation takes fixed + c·d·P/n; the exchange starts after fixed + (1 − overlap)·c·d·P/n and sends
 * S·d/n² bytes from every instance to every other (S the stage's shuffle bytes), in MTU packets. With overlap 0 it
 * is "compute, then exchange".
 *
 * <p>A driver stage ({@link StageSpec.Exchange#DRIVER}) moves its bytes through instance 0, the driver: after the
 * fixed part it sends B·d/(n − 1) bytes to every other instance (B the stage's broadcast bytes); the computation
 * starts once they have all arrived, and when the exchange starts every other instance sends the driver
 * S·d/(n − 1) (S the stage's result bytes). So the driver's link carries all of them whatever n.
 *
 * <p>Each ordered pair of instances is one queue pair on the job's service level. The host's NIC serves its queue
 * pairs round robin within a VL (an HCA's scheduling), and instance i creates its queue pairs in the order
 * i + 1, i + 2, … (mod n): the shifted order of a pairwise all-to-all, so that n instances starting together send
 * a permutation at every step instead of all sending to the same instance first.
 */
public final class RoundDriver {
    /**
     * What a run gave: each job's completion time, and what it cost.
     *
     * @param completionSeconds job id → simulated completion time, seconds from 0
     * @param packets           data packets delivered
     */
    public record Result(Map<String, Double> completionSeconds, long packets) {
    }

    private final LeafSpine.Fabric fabric;
    private final Network net;
    private final LeafSpineNetwork names;
    private final List<JobRun> runs = new ArrayList<>();
    private final Map<Integer, JobRun> jobOfFlow = new HashMap<>();
    private final Map<String, Double> completion = new LinkedHashMap<>();
    private long packets;
    private Network.DeliveryListener trace = (p, t) -> { };

    /**
     * @param fabric the fabric, its ports already configured (SL-to-VL tables, VL arbitration)
     * @param jobs   the jobs, on the fabric's host names ({@code h0…})
     * @param slOf   each job's service level, by job id
     */
    public RoundDriver(LeafSpine.Fabric fabric, List<JobSpec> jobs, Map<String, Integer> slOf) {
        this.fabric = fabric;
        this.net = fabric.network();
        this.names = new LeafSpineNetwork(fabric.shape(), net.params().linkGbps());
        for (JobSpec j : jobs) {
            if (j.workload().sendCapFraction() != 1) {
                throw new IllegalArgumentException(j.id() + ": the packet-level mode has no per-instance send cap");
            }
            Integer sl = slOf.get(j.id());
            if (sl == null) {
                throw new IllegalArgumentException("no service level for job " + j.id());
            }
            runs.add(new JobRun(j, sl));
        }
        net.onDelivery((p, t) -> {
            packets++;
            trace.delivered(p, t);
            JobRun r = jobOfFlow.get(p.flow());
            if (r != null) {
                r.delivered(p.flow(), p.payloadBytes());
            }
        });
    }

    /** Also shows every delivered data packet to {@code listener} (a profiler's traffic record). */
    public RoundDriver trace(Network.DeliveryListener listener) {
        this.trace = listener;
        return this;
    }

    /** Runs every job from time 0 to its end. */
    public Result run() {
        for (JobRun r : runs) {
            net.schedule(0, r::startRound);
        }
        net.runToIdle();
        List<String> unfinished = new ArrayList<>();
        for (JobRun r : runs) {
            if (!completion.containsKey(r.spec.id())) {
                unfinished.add(r.spec.id());
            }
        }
        if (!unfinished.isEmpty()) {
            throw new IllegalStateException("the fabric stopped with jobs " + unfinished + " unfinished and "
                    + net.bufferedBytes() + " bytes in switch buffers (a VL without arbitration weight?)");
        }
        return new Result(Map.copyOf(completion), packets);
    }

    private static long ps(double seconds) {
        return Math.round(seconds * 1e12);
    }

    /** One job's progress through its rounds. */
    private final class JobRun {
        final JobSpec spec;
        final int n;
        final List<QueuePair> pairs = new ArrayList<>();
        /** The queue pair from instance i to instance j. */
        final QueuePair[][] pair;
        int stage;
        int run;
        boolean computeDone;
        long bytesLeft;
        /** A driver round: broadcast bytes still on their way, and the result bytes each instance sends after. */
        long broadcastLeft;
        long resultsPerInstance;
        /** The flows out of the driver (instance 0). */
        final java.util.Set<Integer> fromDriver = new java.util.HashSet<>();

        JobRun(JobSpec spec, int sl) {
            this.spec = spec;
            this.n = spec.hosts().size();
            List<HostNode> hosts = new ArrayList<>();
            for (String h : spec.hosts()) {
                hosts.add(fabric.hosts().get(names.indexOf(h)));
            }
            this.pair = new QueuePair[n][n];
            for (int i = 0; i < n; i++) {
                for (int k = 1; k < n; k++) {
                    int j = (i + k) % n;
                    QueuePair q = net.addQueuePair(spec.id() + ":" + i + "->" + j, hosts.get(i), hosts.get(j), sl);
                    pairs.add(q);
                    pair[i][j] = q;
                    if (i == 0) {
                        fromDriver.add(q.flow());
                    }
                    jobOfFlow.put(q.flow(), this);
                }
            }
        }

        void startRound() {
            WorkloadSpec w = spec.workload();
            StageSpec st = w.stages().get(stage);
            double d = spec.datasetScale();
            double scaled = st.computeSeconds() * d * w.profiledNodes() / n;
            double fixed = w.fixedSecondsPerStage();
            long now = net.now();
            computeDone = false;
            if (st.exchange() == StageSpec.Exchange.DRIVER) {
                driverRound(st, d, now + ps(fixed), scaled);
                return;
            }
            net.schedule(now + ps(fixed + scaled), () -> {
                computeDone = true;
                maybeEndRound();
            });
            long perPair = n < 2 ? 0 : Math.round(st.shuffleBytes() * d / ((double) n * n));
            bytesLeft = perPair * pairs.size();
            if (bytesLeft > 0) {
                net.schedule(now + ps(fixed + (1 - st.overlap()) * scaled), () -> {
                    for (QueuePair q : pairs) {
                        q.post(perPair);
                    }
                });
            }
        }

        /** A driver round from {@code start}: the broadcast, then the computation, then the results. */
        private void driverRound(StageSpec st, double d, long start, double scaled) {
            long out = n < 2 ? 0 : Math.round(st.broadcastBytes() * d / (n - 1.0));
            resultsPerInstance = n < 2 ? 0 : Math.round(st.shuffleBytes() * d / (n - 1.0));
            broadcastLeft = out * (n - 1L);
            bytesLeft = broadcastLeft + resultsPerInstance * (n - 1L);
            if (broadcastLeft == 0) {
                compute(start, scaled, st.overlap());
                return;
            }
            net.schedule(start, () -> {
                for (int j = 1; j < n; j++) {
                    pair[0][j].post(out);
                }
            });
        }

        /** The computation from {@code at}, and a driver round's results once its exchange may start. */
        private void compute(long at, double scaled, double overlap) {
            net.schedule(at + ps(scaled), () -> {
                computeDone = true;
                maybeEndRound();
            });
            if (resultsPerInstance > 0) {
                net.schedule(at + ps((1 - overlap) * scaled), () -> {
                    for (int i = 1; i < n; i++) {
                        pair[i][0].post(resultsPerInstance);
                    }
                });
            }
        }

        void delivered(int flow, int bytes) {
            bytesLeft -= bytes;
            if (broadcastLeft > 0 && fromDriver.contains(flow)) {
                broadcastLeft -= bytes;
                if (broadcastLeft == 0) {
                    WorkloadSpec w = spec.workload();
                    StageSpec st = w.stages().get(stage);
                    compute(net.now(), st.computeSeconds() * spec.datasetScale() * w.profiledNodes() / n,
                            st.overlap());
                }
            }
            if (bytesLeft == 0) {
                maybeEndRound();
            }
        }

        private void maybeEndRound() {
            if (!computeDone || bytesLeft > 0) {
                return;
            }
            WorkloadSpec w = spec.workload();
            run++;
            if (run >= w.stages().get(stage).repeat()) {
                run = 0;
                stage++;
            }
            if (stage >= w.stages().size()) {
                completion.put(spec.id(), net.now() / 1e12);
                return;
            }
            startRound();
        }
    }
}
