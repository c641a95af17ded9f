package io.saba.core.model;

/**
 * Which fitted candidates a selection may choose: one family or any ({@code auto}), one polynomial degree or any.
 * {@code auto} picks only candidates that are non-increasing over the profiled shares: a curve that rises with
 * bandwidth is noise, and Eq. 2 would exploit it by withholding bandwidth the job could use.
 *
 * @param family null for auto
 * @param degree null for any degree; restricts the polynomial families only
 */
public record ModelChoice(ModelFamily family, Integer degree) implements java.io.Serializable {
    /** The default: every family and degree, chosen by cross-validated error. */
    public static final ModelChoice AUTO = new ModelChoice(null, null);

    public ModelChoice {
        if (degree != null && (degree < 1 || degree > SensitivityModel.MAX_DEGREE)) {
            throw new IllegalArgumentException("degree must be 1 to " + SensitivityModel.MAX_DEGREE + ", got " + degree);
        }
        if (family == ModelFamily.INVERSE && degree != null) {
            throw new IllegalArgumentException("the inverse family (a + c/b) has no degree; drop the degree");
        }
    }

    /** The paper's method: an unconstrained polynomial of this degree. */
    public static ModelChoice paper(int degree) {
        return new ModelChoice(ModelFamily.POLY, degree);
    }

    /**
     * @param family "auto" or a {@link ModelFamily} name
     * @param degree null for any
     */
    public static ModelChoice parse(String family, Integer degree) {
        boolean auto = family == null || family.trim().equalsIgnoreCase("auto");
        return new ModelChoice(auto ? null : ModelFamily.parse(family), degree);
    }

    public boolean auto() {
        return family == null;
    }

    /** True if the selection may choose this candidate. */
    public boolean allows(FittedModel candidate) {
        if (family != null && candidate.family() != family) {
            return false;
        }
        if (degree != null && candidate.family().polynomial() && candidate.degree() != degree) {
            return false;
        }
        return family != null || candidate.monotone();
    }

    @Override
    public String toString() {
        return (family == null ? "auto" : family.id()) + (degree == null ? "" : " k=" + degree);
    }
}
