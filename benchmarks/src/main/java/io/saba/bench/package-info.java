/**
 * Benchmarks: main classes behind {@code saba controller bench}, {@code saba controller group-bench} and
 * {@code saba bench allocation}, never unit tests and never in a production jar. Each prints its results beside a
 * baseline run in the same process (a lone controller beside a group, a generic SQP optimiser beside Eq. 2).
 */
package io.saba.bench;
