/**
 * The event-driven fluid engine. Jobs run stages (compute, then an all-to-all shuffle); every shuffle is one
 * {@link io.saba.harness.sim.engine.FlowGroup} whose flows move in lockstep; at every event (a compute phase
 * ends, a shuffle starts or ends, a job ends) the policy is asked how each port is scheduled and the rates are
 * recomputed; time then jumps to the next event. Events at the same time run in the order they were scheduled,
 * so a run is a pure function of its inputs.
 *
 * <p>Approximation, and why it is adequate: the flows of one stage's shuffle progress in lockstep at one per-flow
 * rate (the rate their most contended port allows). Spark and Flink stages end at a barrier, so a stage's
 * completion is set by its slowest flow either way; what lockstep loses is that a job's flows through idle ports
 * would finish early and free bandwidth there sooner. It makes a 16-job, 32-host setup a few hundred events
 * instead of hundreds of thousands.
 */
package io.saba.harness.sim.engine;
