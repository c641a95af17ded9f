package io.saba.core.model;

import java.util.List;

/**
 * A sensitivity model together with how well it explains the samples it was fitted from.
 *
 * @param model   the polynomial
 * @param r2      coefficient of determination on the samples (1 = explains all variation)
 * @param samples the samples, in input order
 */
public record FittedModel(SensitivityModel model, double r2, List<Sample> samples) {
    public FittedModel {
        samples = List.copyOf(samples);
    }
}
