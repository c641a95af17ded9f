/**
 * The packet-level mode of the scale study ({@code saba campaign --figure fig10-packet}): the paper's
 * synthetic workloads, shrunk in time, run as jobs of synchronous rounds ({@link io.saba.harness.packet.RoundDriver})
 * on the RPerf switch model grown to a small leaf-spine ({@code io.saba.rperf.switchmodel.LeafSpine}), a lossless,
 * credit-based fabric with input buffers per port and VL. The same placement runs with every application on one
 * shared VL (the baseline: head-of-line blocking and congestion trees between applications), with a VL per
 * application, and with Saba's levels and weights from the controller's own pipeline, written as the InfiniBand
 * backend writes them ({@link io.saba.harness.packet.VlSetup}); Saba's models come from profiling the workloads in
 * this model ({@link io.saba.harness.packet.PacketProfiler}). {@link io.saba.harness.packet.PacketStudy} also runs
 * the fluid simulator on the same jobs and paths ({@link io.saba.harness.packet.LeafSpineNetwork}), which is the
 * check of the fluid model's conclusions.
 */
package io.saba.harness.packet;
