package io.saba.core.testing;

import io.saba.core.model.SensitivityModel;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plausible sensitivity models for the paper's ten HiBench workloads, made up for tests to match the paper's
 * narrative (Sort ≈ 1.1× and LR ≈ 3.4× slowdown at 25 % bandwidth) and the thesis's three groups
 * {TS, WC, PR, SQL}, {SVM, NI, NW}, {LR, RF, GBT}. Each is D(b) = 1 + α(1-b) + β(1-b)² + γ(1-b)³, expanded.
 */
public final class Workloads {
    private Workloads() {
    }

    /** D(b) = 1 + α u + β u² + γ u³ with u = 1 - b, as coefficients of b. */
    public static SensitivityModel model(double alpha, double beta, double gamma) {
        return SensitivityModel.of(1 + alpha + beta + gamma, -alpha - 2 * beta - 3 * gamma, beta + 3 * gamma, 0.0 - gamma);
    }

    /** Workload name → model, in the thesis's group order. */
    public static Map<String, SensitivityModel> hibench() {
        Map<String, SensitivityModel> m = new LinkedHashMap<>();
        m.put("ts", model(0.10, 0.05, 0.00));
        m.put("wc", model(0.15, 0.10, 0.00));
        m.put("pr", model(0.25, 0.20, 0.05));
        m.put("sql", model(0.10, 0.30, 0.20));
        m.put("svm", model(0.80, 0.90, 0.30));
        m.put("ni", model(1.00, 0.60, 0.40));
        m.put("nw", model(0.70, 1.20, 0.20));
        m.put("lr", model(1.50, 2.00, 0.50));
        m.put("rf", model(1.80, 1.50, 0.80));
        m.put("gbt", model(1.20, 2.40, 0.70));
        return m;
    }
}
