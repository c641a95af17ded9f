package io.saba.bench;

import io.saba.core.alloc.Application;
import io.saba.core.alloc.PortId;
import io.saba.core.model.SensitivityModel;
import io.saba.core.solve.MinSlowdownSolver;
import io.saba.core.solve.PortSolution;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hipparchus.exception.MathRuntimeException;

/**
 * Eq. 2's solver beside a generic SQP optimiser ({@link SqpPortSolver}) on a random sample of one scenario's ports
 * shared by more than one application: how much longer SQP takes, and how close its objective comes.
 *
 * @param oursNanos  time Eq. 2's solver took over the ports compared
 * @param sqpNanos   time SQP took over them
 * @param ratioSum   the sum over them of our objective over SQP's
 * @param ratioMax   the largest of those ratios (0 with none)
 * @param ports      ports compared
 * @param failures   ports SQP gave up on, left out of the comparison
 */
record SqpComparison(double oursNanos, double sqpNanos, double ratioSum, double ratioMax, int ports, int failures) {

    /** Solves {@code sample} ports drawn at random from those with more than one application, with both solvers. */
    static SqpComparison sample(Map<PortId, BitSet> appsOnPort, List<Application> apps, int sample, Random rnd) {
        List<BitSet> candidates = new ArrayList<>();
        for (BitSet b : appsOnPort.values()) {
            if (b.cardinality() > 1) {
                candidates.add(b);
            }
        }
        MinSlowdownSolver ours = new MinSlowdownSolver();
        SqpPortSolver sqp = new SqpPortSolver(ours.floor());
        double oursNanos = 0;
        double sqpNanos = 0;
        double ratioSum = 0;
        double ratioMax = 0;
        int ports = 0;
        int failures = 0;
        for (int i = 0; i < sample && !candidates.isEmpty(); i++) {
            BitSet b = candidates.get(rnd.nextInt(candidates.size()));
            List<SensitivityModel> models = new ArrayList<>();
            b.stream().forEach(a -> models.add(apps.get(a).model()));
            long t0 = System.nanoTime();
            PortSolution mine = ours.solve(models, 1.0);
            long t1 = System.nanoTime();
            PortSolution theirs;
            try {
                theirs = sqp.solve(models, 1.0);
            } catch (MathRuntimeException e) {
                // SQP gave up ("convergence failed", or its quasi-Newton matrix lost symmetry): nothing to compare
                failures++;
                continue;
            }
            long t2 = System.nanoTime();
            oursNanos += t1 - t0;
            sqpNanos += t2 - t1;
            double ratio = mine.objective() / theirs.objective();
            ratioSum += ratio;
            ratioMax = Math.max(ratioMax, ratio);
            ports++;
        }
        return new SqpComparison(oursNanos, sqpNanos, ratioSum, ratioMax, ports, failures);
    }
}
