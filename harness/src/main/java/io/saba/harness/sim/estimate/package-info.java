/**
 * The online sensitivity estimate in the simulator: a simulated job's stage runs turned into the units
 * of work the plugins report ({@link io.saba.harness.sim.estimate.SimulatedUnits}), fed through the controller's own
 * {@link io.saba.controller.estimate.LearnedModels} to get the models a controller under
 * {@code sensitivity: online|blended} would have in force after the run ({@link io.saba.harness.sim.estimate.RunLearning}).
 */
package io.saba.harness.sim.estimate;
