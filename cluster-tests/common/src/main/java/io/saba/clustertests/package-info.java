/**
 * What the real-cluster tests of both engines share: the standalone controller as a process ({@link
 * io.saba.clustertests.StandaloneController}), daemons that are stopped with everything they started
 * ({@link io.saba.clustertests.Daemons}), a loopback capture ({@link io.saba.clustertests.LoopbackCapture}), free
 * ports and deadlines. No engine classes: each engine's tests live in a module of their own.
 */
package io.saba.clustertests;
