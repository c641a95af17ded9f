package io.saba.core.model;

import java.util.Locale;

/** The ways Saba fits a sensitivity model to profiling samples; each yields a {@link SensitivityModel}. */
public enum ModelFamily {
    /** The paper's polynomial of degree k by ordinary least squares (§4.1), unconstrained. */
    POLY("poly"),
    /**
     * A polynomial of degree k constrained to be non-increasing from the lowest profiled share to the full link:
     * in the Bernstein basis on that interval, non-increasing coefficients make the polynomial non-increasing, so
     * least squares over them is a non-negative least squares problem.
     */
    MONOTONE_POLY("monotone-poly"),
    /**
     * D(b) = a + c/b with a, c ≥ 0: a job that computes for a fixed time and moves a fixed number of bytes at the
     * rate it is given (time = compute + bytes / bandwidth). Non-increasing and convex everywhere.
     */
    INVERSE("inverse");

    private final String id;

    ModelFamily(String id) {
        this.id = id;
    }

    /** The name used on the command line and in tables. */
    public String id() {
        return id;
    }

    /** True for the families whose models are polynomials of a chosen degree. */
    public boolean polynomial() {
        return this != INVERSE;
    }

    /** @throws IllegalArgumentException naming the known families */
    public static ModelFamily parse(String name) {
        String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (ModelFamily f : values()) {
            if (f.id.equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown model family '" + name + "'; known: poly, monotone-poly, inverse");
    }

    @Override
    public String toString() {
        return id;
    }
}
