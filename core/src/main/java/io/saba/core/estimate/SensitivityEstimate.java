package io.saba.core.estimate;

import io.saba.core.model.SensitivityModel;
import java.util.Collection;
import java.util.List;

/**
 * A workload's sensitivity curve estimated from the network time of its units of work, with its standard error.
 *
 * <p><b>The model</b> (derived here, not taken from the paper, which leaves runtime estimation to future work). A
 * unit computes for a time c that does not depend on bandwidth and waits on the network for a time n at the full
 * link, which grows as 1/s at a share s of the link: its run time is T(s) = c + n/s. Observed at share s with run
 * time T and network wait W: c = T − W and n = W·s. Its slowdown against the full link is
 * D(b) = T(b)/T(1) = (c + n/b)/(c + n) = 1 − φ + φ/b with φ = n/(c + n), the share of its full-link time spent on
 * the network. (With r = n/c = w·s/(1 − w), w = W/T, this is the same curve written as (1 + r/b)/(1 + r).)
 *
 * <p><b>Which network time.</b> The engine's wait counter ({@link Observation.Signal#NETWORK_WAIT}) is not the
 * link's time: small fetches pay round trips a smaller share does not stretch, prefetching hides a transfer behind
 * compute, and network reads outside the counter (task results, broadcasts) are missed. The bytes a unit moved on
 * its busiest host link over the link's rate ({@link Observation.Signal#LINK_BYTES}) measure what a smaller share
 * does stretch: there T is the unit's wall duration and W the link's time at the share it had, n = bytes/rate, so
 * φ = n / duration at the full link, the link's utilisation over the unit.
 *
 * <p><b>Many units.</b> A job's time is the sum of its units' times, so its slowdown is
 * Σ T_k(b) / Σ T_k(1) = 1 − Φ + Φ/b with Φ = Σ n_k / Σ (c_k + n_k): the units' φ_k averaged with weights their
 * full-link times. That is why units are weighed by time and not by bytes: a unit that moved nothing still makes up
 * part of the job's time and dilutes its sensitivity. Units seen at different shares combine exactly: the same
 * work seen at 100 % and at 50 % gives the same φ. D is the model space's a + c/b member
 * ({@link SensitivityModel#inverse}), so the solver handles an estimate exactly, and it is
 * {@code NetworkBound}'s curve, which reads the same φ off a profile's capped samples.
 *
 * <p><b>Uncertainty.</b> Φ is a ratio estimator; its first-order (delta-method) standard error over m units is
 * SE² = m/(m − 1) · Σ (n_k − Φ·z_k)² / (Σ z_k)², z_k = c_k + n_k: the spread of the units' φ_k around Φ, weighted
 * as Φ weighs them. D is linear in Φ, so the slowdown's error at b is (1/b − 1)·SE. One unit has no spread: its
 * error is unknown (NaN). The error measures disagreement between units, not the model's own bias (overlap of
 * compute and transfer that the engine's wait counter does not see, a share that was larger than the weight).
 *
 * @param networkShare          Φ, in [0, 1]
 * @param standardError         SE of Φ; NaN with one observation
 * @param observations          how many units it rests on
 * @param effectiveObservations Kish's effective count (Σ z)²/Σ z², the units' number discounted for unequal
 *                              weights: what a blend with a prior counts
 * @param bytes                 bytes the units moved
 * @param linkObservations      how many of the units read their network time from the bytes on their link
 *                              ({@link Observation.Signal#LINK_BYTES}); the others from the engine's wait counter
 */
public record SensitivityEstimate(double networkShare, double standardError, int observations,
                                  double effectiveObservations, long bytes, int linkObservations) {

    /** The estimate from these units, or null when there is none (no unit, or none with time). */
    public static SensitivityEstimate of(Collection<Observation> units) {
        double network = 0;
        double total = 0;
        double squares = 0;
        long bytes = 0;
        int link = 0;
        for (Observation o : units) {
            if (o.signal() == Observation.Signal.LINK_BYTES) {
                link++;
            }
            network += o.networkMillisAtFullLink();
            total += o.millisAtFullLink();
            squares += o.millisAtFullLink() * o.millisAtFullLink();
            bytes += o.bytes();
        }
        if (!(total > 0)) {
            return null;
        }
        double phi = Math.min(1, network / total);
        int m = units.size();
        double se = Double.NaN;
        if (m > 1) {
            double residuals = 0;
            for (Observation o : units) {
                double e = o.networkMillisAtFullLink() - phi * o.millisAtFullLink();
                residuals += e * e;
            }
            se = Math.sqrt((double) m / (m - 1) * residuals) / total;
        }
        return new SensitivityEstimate(phi, se, m, total * total / squares, bytes, link);
    }

    /** The signal the estimate rests on: "link", "wait", or "mixed" when its units used both. */
    public String signal() {
        return linkObservations == observations ? Observation.Signal.LINK_BYTES.label()
                : linkObservations == 0 ? Observation.Signal.NETWORK_WAIT.label() : "mixed";
    }

    /** D(b) = 1 − Φ + Φ/b as a model. */
    public SensitivityModel model() {
        return SensitivityModel.inverse(1 - networkShare, networkShare);
    }

    /** The predicted slowdown at share b. */
    public double slowdown(double b) {
        return 1 - networkShare + networkShare / b;
    }

    /** The standard error of {@link #slowdown} at share b: (1/b − 1)·SE; NaN with one observation. */
    public double slowdownError(double b) {
        return (1 / b - 1) * standardError;
    }

    /** The weight of these observations against a prior worth {@code priorObservations} units, in [0, 1). */
    public double weightAgainst(double priorObservations) {
        return effectiveObservations / (effectiveObservations + priorObservations);
    }

    /**
     * The prior updated by these observations: the mean of the prior's curve and this one, weighted
     * {@code priorObservations} to {@link #effectiveObservations}, so the estimate takes over as units accumulate.
     * The model space is closed under such means (the blend predicts the weighted mean slowdown at every share), so
     * the blend of a profiled cubic and an estimate is still a model the solver handles exactly.
     *
     * @param priorObservations how many units the prior is worth, ≥ 0 (0: the estimate alone)
     */
    public SensitivityModel blendedWith(SensitivityModel prior, double priorObservations) {
        if (!(priorObservations >= 0)) {
            throw new IllegalArgumentException("a prior is worth ≥ 0 observations, got " + priorObservations);
        }
        if (priorObservations == 0) {
            return model();
        }
        return SensitivityModel.mean(List.of(prior, model()),
                new double[] {priorObservations, effectiveObservations});
    }
}
