/**
 * {@code saba rperf}: the RPerf tool (server, client, qperf comparison) and the switch-model reproductions.
 * Each subcommand is a thin picocli shell over {@code io.saba.rperf}.
 */
package io.saba.cli.rperf;
