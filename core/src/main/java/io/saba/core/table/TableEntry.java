package io.saba.core.table;

import io.saba.core.corun.CorunProfile;
import io.saba.core.corun.NetworkBound;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelFamily;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.List;

/**
 * One workload's row of the sensitivity table.
 *
 * @param workload  the profile key, lower case
 * @param fit       the chosen model, its family, R² and cross-validated error, and the samples it was fitted from
 *                  (may be empty for hand-written entries)
 * @param context   how it was profiled
 * @param selection the candidates it was chosen from and how; null for tables written before model selection and
 *                  for entries made from a single fit
 * @param traffic   how the workload occupied its link alone at full rate (what the co-run predictor replays), or
 *                  null when the profile did not record it
 */
public record TableEntry(String workload, FittedModel fit, ProfilingContext context, ModelSelection selection,
                         TrafficRecord traffic) {
    /** An entry without a traffic record. */
    public TableEntry(String workload, FittedModel fit, ProfilingContext context, ModelSelection selection) {
        this(workload, fit, context, selection, null);
    }

    /** Where a model without samples is checked for monotonicity: the paper's lowest profiled share up to 100 %. */
    static final double DEFAULT_LOWEST_SHARE = 0.05;

    /** A hand-made entry: the family is read off the model (a polynomial, or a + c/b). */
    public TableEntry(String workload, SensitivityModel model, double r2, List<Sample> samples,
                      ProfilingContext context) {
        this(workload, new FittedModel(familyOf(model), model, r2, Double.NaN,
                model.isNonIncreasingOn(lowestShare(samples), 1.0), samples), context, null);
    }

    public static TableEntry of(String workload, FittedModel fit, ProfilingContext context) {
        return new TableEntry(workload, fit, context, null);
    }

    public static TableEntry of(String workload, ModelSelection selection, ProfilingContext context) {
        return new TableEntry(workload, selection.chosen(), context, selection);
    }

    /** The model (b as a fraction of the link). */
    public SensitivityModel model() {
        return fit.model();
    }

    /** Goodness of fit on {@link #samples()}; NaN if unknown. */
    public double r2() {
        return fit.r2();
    }

    public List<Sample> samples() {
        return fit.samples();
    }

    public ModelFamily family() {
        return fit.family();
    }

    /** The same entry under another key. */
    TableEntry withWorkload(String key) {
        return new TableEntry(key, fit, context, selection, traffic);
    }

    /** The same entry with a traffic record. */
    public TableEntry withTraffic(TrafficRecord record) {
        return new TableEntry(workload, fit, context, selection, record);
    }

    /**
     * What the co-run predictor knows of this workload: its traffic record, scaled to the share of its run its
     * samples say it waits on the network; null without a record, and null for a corun-profiled entry.
     *
     * <p>A corun entry's samples were taken beside a bursty competitor on work-conserving queues: they already hold
     * what the competitor's idle time gives back, which is exactly what the predictor's replay adds. The share read
     * off them would count that twice and make the workload look insensitive, so such an entry is used as it is, by
     * Eq. 2 on its curve (a port with it keeps Eq. 2's weights under {@code allocation: corun}).
     */
    public CorunProfile corunProfile() {
        if (traffic == null || (context != null && context.corun())) {
            return null;
        }
        return samples().isEmpty() ? CorunProfile.of(traffic) : new CorunProfile(traffic, NetworkBound.of(samples()));
    }

    /** The family a model belongs to by its form: a + c/b is inverse, a polynomial is the paper's. */
    static ModelFamily familyOf(SensitivityModel model) {
        if (model.isPolynomial()) {
            return ModelFamily.POLY;
        }
        double[] c = model.coefficients();
        for (int i = 1; i <= SensitivityModel.MAX_DEGREE; i++) {
            if (c[i] != 0) {
                throw new IllegalArgumentException(model + " is neither a polynomial nor a + c/b: no table family "
                        + "describes it");
            }
        }
        return ModelFamily.INVERSE;
    }

    static double lowestShare(List<Sample> samples) {
        return samples.stream().mapToDouble(Sample::bandwidthFraction).min().orElse(DEFAULT_LOWEST_SHARE);
    }
}
