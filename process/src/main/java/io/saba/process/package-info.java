/**
 * Running operating-system commands ({@code ip}, {@code tc}, {@code nft}, InfiniBand diags, qperf, an operator's
 * hook, ...) to completion, with errors that name the failing command, its exit code and its stderr. The one
 * runner every module that shells out uses ({@link io.saba.process.ProcessRunner}); behind an interface
 * ({@link io.saba.process.CommandRunner}) so that code generating commands can be unit-tested without root by
 * recording what it would run.
 */
package io.saba.process;
