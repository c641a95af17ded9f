/**
 * JMH micro-benchmarks of the controller's hot paths (the per-port Eq. 2 solve), so that regressions show as
 * ns/op and bytes/op; run as benchmarks/README.md says, never as tests.
 */
package io.saba.bench.jmh;
