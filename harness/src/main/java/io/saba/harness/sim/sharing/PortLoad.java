package io.saba.harness.sim.sharing;

/**
 * One port in a sharing problem: its capacity, the groups crossing it (indices into the problem's groups) with
 * their number of flows here, and the schedule that divides it among them (members index into {@code groups}).
 */
public record PortLoad(double capacity, int[] groups, double[] multiplicity, PortSchedule schedule) {
    public PortLoad {
        if (groups.length != multiplicity.length) {
            throw new IllegalArgumentException("one multiplicity per group");
        }
    }
}
