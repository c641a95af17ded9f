package io.saba.core.model;

import java.util.List;

/**
 * The candidates fitted to one workload's samples and the one chosen.
 *
 * @param choice     what was asked for
 * @param candidates every family and degree the samples could be fitted with, in a fixed order
 * @param chosenIndex which candidate was chosen
 * @param criterion  how it was chosen, for readers of the table and the command's output
 */
public record ModelSelection(ModelChoice choice, List<FittedModel> candidates, int chosenIndex, String criterion) {
    public ModelSelection {
        candidates = List.copyOf(candidates);
        if (chosenIndex < 0 || chosenIndex >= candidates.size()) {
            throw new IllegalArgumentException("chosen candidate " + chosenIndex + " of " + candidates.size());
        }
    }

    public FittedModel chosen() {
        return candidates.get(chosenIndex);
    }
}
