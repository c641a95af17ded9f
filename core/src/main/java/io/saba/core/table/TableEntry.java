package io.saba.core.table;

import io.saba.core.model.FittedModel;
import io.saba.core.model.Sample;
import io.saba.core.model.SensitivityModel;
import java.util.List;

/**
 * One workload's row of the sensitivity table.
 *
 * @param workload the profile key, lower case
 * @param model    the fitted polynomial (b as a fraction of the link)
 * @param r2       goodness of fit on {@code samples}
 * @param samples  the raw samples it was fitted from (may be empty for hand-written entries)
 * @param context  how it was profiled
 */
public record TableEntry(String workload, SensitivityModel model, double r2, List<Sample> samples,
                         ProfilingContext context) {
    public TableEntry {
        samples = List.copyOf(samples);
    }

    public static TableEntry of(String workload, FittedModel fit, ProfilingContext context) {
        return new TableEntry(workload, fit.model(), fit.r2(), fit.samples(), context);
    }
}
