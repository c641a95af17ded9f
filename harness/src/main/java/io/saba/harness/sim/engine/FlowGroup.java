package io.saba.harness.sim.engine;

/**
 * The flows of one shuffle of one job, moving in lockstep: all have the same size and, at any instant, the same
 * rate. Mutable only by the engine.
 */
public final class FlowGroup {
    private final SimJob job;
    private final double bytesPerFlow;
    private final double capPerFlow;
    private final long startSequence;
    private double remainingPerFlow;
    private double rate;

    FlowGroup(SimJob job, double bytesPerFlow, double capPerFlow, long startSequence) {
        this.job = job;
        this.bytesPerFlow = bytesPerFlow;
        this.capPerFlow = capPerFlow;
        this.remainingPerFlow = bytesPerFlow;
        this.startSequence = startSequence;
    }

    public SimJob job() {
        return job;
    }

    public double bytesPerFlow() {
        return bytesPerFlow;
    }

    public double remainingPerFlow() {
        return remainingPerFlow;
    }

    /** Remaining bytes over all flows of the group: what a coflow scheduler would see. */
    public double remainingTotal() {
        return remainingPerFlow * job.instances() * (job.instances() - 1);
    }

    public double capPerFlow() {
        return capPerFlow;
    }

    /** Order in which groups started; a stable tie-breaker for policies that sort. */
    public long startSequence() {
        return startSequence;
    }

    public double rate() {
        return rate;
    }

    void rate(double r) {
        this.rate = r;
    }

    void advance(double dt) {
        remainingPerFlow = Math.max(0, remainingPerFlow - rate * dt);
    }

    void finish() {
        remainingPerFlow = 0;
    }
}
