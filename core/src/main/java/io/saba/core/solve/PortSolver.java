package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;
import java.util.List;

/**
 * Solves the paper's Eq. 2 for one switch output port: weights w_i ≥ floor with Σ w_i = capacity that minimise
 * Σ D_i(w_i). Shares are fractions of the link (capacity = C_Saba, e.g. 1.0 for 100 %).
 */
public interface PortSolver {
    /**
     * @param models   one model per application crossing the port (the same model may appear many times)
     * @param capacity C_Saba as a fraction of the link, 0 &lt; capacity ≤ 1
     * @return the weights, in the order of {@code models}, summing to {@code capacity}
     */
    PortSolution solve(List<SensitivityModel> models, double capacity);
}
