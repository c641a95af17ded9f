/** Measurements of the harness's own engines (how fast they simulate), never part of a result. */
package io.saba.harness.bench;
