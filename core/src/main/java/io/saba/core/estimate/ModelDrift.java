package io.saba.core.estimate;

import io.saba.core.model.SensitivityModel;

/**
 * Whether an estimate contradicts a profiled model: at the shares where Saba's decisions are made (25 % and 50 %,
 * the shares the online estimate's accuracy is judged at), the estimate's slowdown lies further from the table's than both
 * {@link #Z} standard errors of the estimate and {@link #TOLERANCE} of the table's slowdown. The tolerance absorbs
 * what no number of units can remove: a profiled cubic is not an a + c/b curve, and a profile caps the rate while a
 * weight is work-conserving.
 *
 * <p>An estimate is judged only once it rests on {@link #MIN_UNITS} units. A job's first units are its setup, not its
 * work: PageRank's first four stages on the testbed build the graph and read nothing over the network. Four units
 * with φ = 0 give Φ = 0 with a standard error of 0 (the spread of identical values), and the next few, still
 * outweighed by the setup, contradict the whole job's curve beyond their error too; the flag then went up within a
 * job's first seconds and said nothing about the job.
 */
public final class ModelDrift {
    /** The shares compared. */
    public static final double[] SHARES = {0.25, 0.5};
    /** Standard errors a deviation must exceed (about 95 % two-sided for a normal estimate). */
    public static final double Z = 2;
    /** Relative deviation from the table's slowdown a contradiction must exceed whatever the error. */
    public static final double TOLERANCE = 0.10;
    /**
     * Units an estimate must rest on before it is judged: as many as a profiled table is worth when the two are
     * blended (the controller's {@code LearnedModels.PROFILED_PRIOR_UNITS}), so the observations are not judged
     * against the table before they would weigh as much as it.
     */
    public static final int MIN_UNITS = 8;

    private ModelDrift() {
    }

    /**
     * The estimate against the table at one share.
     *
     * @param share     b
     * @param estimated the estimate's slowdown at b
     * @param error     its standard error (NaN when unknown)
     * @param table     the table's slowdown at b
     */
    public record Deviation(double share, double estimated, double error, double table) {
        /** (estimated − table) / table. */
        public double relative() {
            return (estimated - table) / table;
        }

        /** How far the estimate may lie from the table without contradicting it. */
        public double allowed() {
            double tolerated = TOLERANCE * Math.abs(table);
            return Double.isNaN(error) ? tolerated : Math.max(Z * error, tolerated);
        }

        /** True when the estimate lies beyond {@link #allowed}; never while its error is unknown. */
        public boolean contradicts() {
            return !Double.isNaN(error) && Math.abs(estimated - table) > allowed();
        }
    }

    /** Whether the estimate rests on enough units to be judged against a table at all. */
    public static boolean judges(SensitivityEstimate estimate) {
        return estimate.observations() >= MIN_UNITS;
    }

    /** The deviation at the share of {@link #SHARES} where the estimate lies furthest beyond what is allowed. */
    public static Deviation worst(SensitivityEstimate estimate, SensitivityModel table) {
        Deviation worst = null;
        double worstRatio = Double.NEGATIVE_INFINITY;
        for (double b : SHARES) {
            Deviation d = new Deviation(b, estimate.slowdown(b), estimate.slowdownError(b), table.slowdown(b));
            double off = Math.abs(d.estimated() - d.table());
            double ratio = d.allowed() > 0 ? off / d.allowed() : off > 0 ? Double.POSITIVE_INFINITY : 0;
            if (ratio > worstRatio) {
                worst = d;
                worstRatio = ratio;
            }
        }
        return worst;
    }
}
