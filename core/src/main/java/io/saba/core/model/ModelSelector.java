package io.saba.core.model;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Fits every family and degree the samples allow and chooses one by held-out error: the lowest leave-one-level-out
 * RMSE ({@link ModelFitter#crossValidatedRmse}) among the candidates the {@link ModelChoice} allows. R² on the fitted
 * points always favours the most flexible model (a cubic through five levels explains them almost perfectly and
 * may still rise between them); cross-validation charges each candidate for what it predicts where it was not
 * fitted. Ties go to fewer parameters, then to the physically grounded family (inverse, then monotone).
 */
public final class ModelSelector {
    /** Printed and stored with every selection. */
    public static final String CRITERION = "lowest leave-one-level-out RMSE";
    static final String TOO_FEW_LEVELS = "too few levels to hold one out: fewest parameters";

    private static final List<ModelFamily> PREFERENCE = List.of(ModelFamily.INVERSE, ModelFamily.MONOTONE_POLY,
            ModelFamily.POLY);

    private ModelSelector() {
    }

    /**
     * @throws IllegalArgumentException naming a bad sample, or why nothing the choice allows can be fitted
     */
    public static ModelSelection select(List<Sample> samples, ModelChoice choice) {
        TreeSet<Double> levels = ModelFitter.levels(samples);
        List<FittedModel> candidates = new ArrayList<>();
        for (ModelFamily family : ModelFamily.values()) {
            if (!family.polynomial()) {
                addIfDetermined(candidates, family, 0, samples);
                continue;
            }
            for (int k = 1; k <= SensitivityModel.MAX_DEGREE; k++) {
                addIfDetermined(candidates, family, k, samples);
            }
        }
        List<FittedModel> allowed = candidates.stream().filter(choice::allows).toList();
        if (allowed.isEmpty()) {
            if (choice.family() != null) {
                // let the fitter say what is missing (e.g. "a degree-3 model needs samples at 4 or more levels")
                ModelFitter.fit(choice.family(), choice.degree() != null ? choice.degree() : 1, samples);
            }
            throw new IllegalArgumentException("no " + choice + " model fits samples at " + levels.size()
                    + " distinct bandwidth levels " + levels);
        }
        Comparator<FittedModel> simpler = Comparator.comparingInt(FittedModel::parameters)
                .thenComparingInt(f -> PREFERENCE.indexOf(f.family()));
        List<FittedModel> scored = allowed.stream().filter(f -> !Double.isNaN(f.cvRmse())).toList();
        if (scored.isEmpty()) {
            FittedModel simplest = allowed.stream().min(simpler).orElseThrow();
            return new ModelSelection(choice, candidates, candidates.indexOf(simplest), TOO_FEW_LEVELS);
        }
        FittedModel best = scored.stream().min(Comparator.comparingDouble(FittedModel::cvRmse).thenComparing(simpler))
                .orElseThrow();
        return new ModelSelection(choice, candidates, candidates.indexOf(best), CRITERION);
    }

    /** Adds the fit unless the samples cannot determine it (too few levels, or a singular design). */
    private static void addIfDetermined(List<FittedModel> candidates, ModelFamily family, int degree,
                                        List<Sample> samples) {
        try {
            candidates.add(ModelFitter.fit(family, degree, samples));
        } catch (IllegalArgumentException cannotFit) {
            // samples were checked already: what is left is a shortage of levels, which the candidate list shows
        }
    }
}
