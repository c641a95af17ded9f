/**
 * Campaigns: many independent simulations built from an explicit configuration and seed, run on a fixed-size
 * pool, written to CSV as they finish (so an interrupted campaign resumes), summarised beside the paper's
 * numbers and plotted. Nothing here is static or shared between simulations except immutable inputs, so results
 * do not depend on the number of threads.
 */
package io.saba.harness.campaign;
