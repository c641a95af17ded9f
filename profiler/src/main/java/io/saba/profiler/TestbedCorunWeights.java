package io.saba.profiler;

import io.saba.testbed.TestbedSpec;
import io.saba.testbed.TestbedWeights;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The corun method's levels on the namespace testbed: at level w (in %), the profiled workload's priority level
 * gets w % of Saba's share (C_Saba) on every port, each host's egress and each switch port, and the competitor's
 * level the rest, in work-conserving HTB queues (a queue whose owner is idle lends its share). At 100 % the ports are
 * the plain link: that run is the baseline, the workload alone, with nothing beside it.
 */
public final class TestbedCorunWeights implements RateLimiter {
    /** Saba's share of every port, as the controller and the Fig. 1b runs use it. */
    public static final double C_SABA = 0.9;
    /** The profiled workload's queue (the first of the two); the competitor's is the second. */
    public static final int PROFILED_QUEUE = 0;
    public static final int COMPETITOR_QUEUE = 1;

    private final TestbedSpec spec;
    private final TestbedWeights ports;
    private final int profiledLevel;
    private final int competitorLevel;

    /**
     * @param profiledLevel   the priority level the controller gives the profiled workload (its DSCP's class)
     * @param competitorLevel the competitor's; must differ
     */
    public TestbedCorunWeights(TestbedSpec spec, TestbedWeights ports, int profiledLevel, int competitorLevel) {
        if (profiledLevel == competitorLevel) {
            throw new IllegalArgumentException("the profiled workload and its competitor need two priority levels, "
                    + "both got " + profiledLevel);
        }
        this.spec = spec;
        this.ports = ports;
        this.profiledLevel = profiledLevel;
        this.competitorLevel = competitorLevel;
    }

    @Override
    public void apply(double percent) {
        if (!(percent > 0 && percent <= 100)) {
            throw new IllegalArgumentException("bandwidth level " + percent + " % is outside (0, 100]");
        }
        if (percent >= SlowdownSamples.FULL_RATE) {
            ports.reset();
            return;
        }
        ports.apply(weights(percent));
    }

    /** Level → weight at {@code percent}: the profiled workload's queue first. */
    Map<Integer, Double> weights(double percent) {
        Map<Integer, Double> w = new LinkedHashMap<>();
        w.put(profiledLevel, C_SABA * percent / 100);
        w.put(competitorLevel, C_SABA * (1 - percent / 100));
        return w;
    }

    /** Bytes sent so far through each Saba queue, summed over the ports (for the competitor loop's check). */
    public Map<Integer, Long> queueBytes() {
        return ports.queueBytes();
    }

    @Override
    public void reset() {
        ports.reset();
    }

    @Override
    public String fabric() {
        return String.format(Locale.ROOT, "netns testbed '%s': %d hosts on one Linux bridge, %s links (veth, HTB); "
                + "work-conserving weighted queues on every host egress and switch port, C_Saba %.2f",
                spec.name(), spec.hosts(), TestbedRateLimiter.rate(spec.linkRateBps()), C_SABA);
    }
}
