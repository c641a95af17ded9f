package io.saba.harness.sim.workload;

/**
 * One stage of a workload, as profiled (1x dataset on the workload's profiled node count).
 *
 * @param repeat         how many times the stage runs back to back (iterative algorithms)
 * @param computeSeconds compute time of one instance per run, at 1x on the profiled node count; the work is
 *                       spread over the instances, so with n instances it becomes computeSeconds·profiled/n
 * @param shuffleBytes   bytes the job shuffles all-to-all per run at 1x (each instance holds 1/n of them and
 *                       keeps its own 1/n locally)
 * @param overlap        fraction of the compute that can overlap the shuffle (0 = strictly compute then shuffle)
 */
public record StageSpec(int repeat, double computeSeconds, double shuffleBytes, double overlap) {
    public StageSpec {
        if (repeat < 1 || computeSeconds < 0 || shuffleBytes < 0 || overlap < 0 || overlap > 1) {
            throw new IllegalArgumentException("bad stage: repeat=" + repeat + " compute=" + computeSeconds
                    + " bytes=" + shuffleBytes + " overlap=" + overlap);
        }
    }
}
