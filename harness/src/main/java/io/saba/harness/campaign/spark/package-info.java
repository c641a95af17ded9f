/** Running a campaign's setups as tasks on a Spark cluster ({@code saba campaign --master …}). */
package io.saba.harness.campaign.spark;
