/**
 * What the real-cluster tests of both engines share: the standalone controller as a process ({@link
 * io.saba.clustertests.StandaloneController}), daemons that are stopped with everything they started
 * ({@link io.saba.clustertests.Daemons}), free ports and deadlines; captures on loopback are the
 * {@code process} module's {@link io.saba.process.PacketCapture}. No engine classes: each engine's tests live in a module of their own.
 */
package io.saba.clustertests;
