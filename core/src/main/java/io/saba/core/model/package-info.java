/**
 * Sensitivity models and how they are fitted: {@link io.saba.core.model.SensitivityModel} is one space,
 * D(b) = c0 + c1 b + c2 b² + c3 b³ + r/b with b a fraction of the link, closed under averaging and with at most one
 * concave stretch; {@link io.saba.core.model.ModelFamily} names the ways of fitting a point of it (the paper's
 * polynomial, a monotone polynomial, a + c/b); {@link io.saba.core.model.ModelSelector} fits them all and chooses by
 * leave-one-level-out cross-validation.
 */
package io.saba.core.model;
