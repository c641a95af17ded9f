package io.saba.core.model;

import java.util.List;

/**
 * A sensitivity model together with how it was fitted and how well it explains its samples.
 *
 * @param family   how it was fitted
 * @param model    the model
 * @param r2       coefficient of determination on the samples it was fitted from (1 = explains all variation)
 * @param cvRmse   leave-one-level-out cross-validated root mean square error of the slowdown (see
 *                 {@link ModelFitter#crossValidatedRmse}); NaN if too few levels to hold one out
 * @param monotone true if the model does not rise anywhere from the lowest profiled share to the full link
 * @param samples  the samples, in input order (empty for candidates read back from a table)
 */
public record FittedModel(ModelFamily family, SensitivityModel model, double r2, double cvRmse, boolean monotone,
                          List<Sample> samples) {
    public FittedModel {
        samples = List.copyOf(samples);
    }

    /** The polynomial degree, or 0 for the inverse family, which has none. */
    public int degree() {
        return family.polynomial() ? model.degree() : 0;
    }

    /** The number of fitted parameters: what cross-validation weighs the error against. */
    public int parameters() {
        return family.polynomial() ? model.degree() + 1 : 2;
    }

    /** e.g. "poly k=3", "inverse". */
    public String label() {
        return family.polynomial() ? family.id() + " k=" + model.degree() : family.id();
    }
}
