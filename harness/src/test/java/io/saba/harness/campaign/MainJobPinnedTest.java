package io.saba.harness.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import io.saba.core.model.ModelChoice;
import io.saba.harness.sim.engine.Mechanisms;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The main job's per-job results (bin/saba campaign: fig8, seed 1, co-run allocation) for two setups, pinned to the
 * six decimals jobs.csv writes: what makes the campaign faster must not move them. Setup 13 is one whose results
 * move when the co-run search meets its applications in another order.
 */
class MainJobPinnedTest {
    /** setup,job,workload,dataset_scale,instances,baseline_s,policy_s as the campaign wrote them. */
    private static final String PINNED = """
            0,s0-j0,nutchindexing,0.1,19,46.217622,39.032214
            0,s0-j1,sql,0.1,9,55.578884,24.311720
            0,s0-j2,rf,0.1,24,51.123621,115.039494
            0,s0-j3,nutchindexing,1.0,9,863.220190,414.554184
            0,s0-j4,sql,1.0,10,308.122034,189.945777
            0,s0-j5,lr,0.1,5,218.491541,110.728784
            0,s0-j6,sql,1.0,32,64.692533,56.592922
            0,s0-j7,wordcount,10.0,7,1721.113835,1308.857143
            0,s0-j8,sql,1.0,15,186.384950,121.068507
            0,s0-j9,lr,0.1,14,81.927012,55.848349
            0,s0-j10,rf,10.0,28,1665.946393,1867.741974
            0,s0-j11,sort,10.0,15,1453.023596,917.556367
            0,s0-j12,sort,0.1,8,59.030839,34.634206
            0,s0-j13,lr,10.0,28,1377.073338,1433.341867
            0,s0-j14,rf,1.0,20,472.794147,1299.650208
            0,s0-j15,gbt,10.0,18,1675.518069,1230.081606
            13,s13-j0,sql,0.1,18,18.546310,15.847391
            13,s13-j1,sort,0.1,19,20.858115,18.581262
            13,s13-j2,sort,0.1,19,20.858115,18.581262
            13,s13-j3,rf,1.0,12,640.539281,789.388683
            13,s13-j4,sql,0.1,9,40.961997,24.604656
            13,s13-j5,rf,0.1,9,138.945416,174.158198
            13,s13-j6,pagerank,1.0,4,1011.466077,741.013784
            13,s13-j7,wordcount,1.0,4,631.789796,234.000000
            13,s13-j8,svm,10.0,29,786.488521,859.653275
            13,s13-j9,gbt,10.0,31,589.567755,521.625583
            13,s13-j10,sort,1.0,16,149.408239,95.439658
            13,s13-j11,svm,0.1,25,24.149915,30.948470
            13,s13-j12,lr,0.1,27,22.475802,57.236840
            13,s13-j13,pagerank,1.0,8,664.492158,357.312241
            13,s13-j14,nweight,1.0,18,271.396061,468.806744
            13,s13-j15,sort,1.0,6,337.838298,241.602902
            """;

    @Test
    void setupsZeroAndThirteenGiveTheirPinnedCompletionTimes() {
        TestbedSetups setups = new TestbedSetups(1, ModelChoice.AUTO, 8, 1.0, Mechanisms.NONE, Allocation.CORUN);
        List<String> expected = PINNED.lines().toList();
        int row = 0;
        for (int setup : new int[] {0, 13}) {
            for (JobOutcome o : setups.run(setup)) {
                String[] f = expected.get(row++).split(",");
                String what = "setup " + setup + " " + o.job();
                assertEquals(Integer.parseInt(f[0]), o.setup(), what);
                assertEquals(f[1], o.job(), what);
                assertEquals(f[2], o.workload(), what);
                assertEquals(Double.parseDouble(f[3]), o.datasetScale(), 0, what);
                assertEquals(Integer.parseInt(f[4]), o.instances(), what);
                assertEquals(Double.parseDouble(f[5]), o.baselineSeconds(), 5.01e-7, what + " under max-min");
                assertEquals(Double.parseDouble(f[6]), o.policySeconds(), 5.01e-7, what + " under Saba");
            }
        }
        assertEquals(expected.size(), row);
    }
}
