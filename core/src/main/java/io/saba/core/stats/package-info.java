/** Statistics a report prints beside its figures: intervals of geometric means. */
package io.saba.core.stats;
