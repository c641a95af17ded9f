/**
 * Progress of long runs (campaigns, studies, benchmarks), shared by every module that has one
 * ({@link io.saba.core.progress.Progress}): one updating line on a terminal, plain lines at a bounded rate elsewhere.
 * It writes only to the stream it is handed.
 */
package io.saba.core.progress;
