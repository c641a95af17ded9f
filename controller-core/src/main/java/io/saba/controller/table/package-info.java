/** The sensitivity table as the controller uses it: loading, reloading, and the default model for unknown workloads. */
package io.saba.controller.table;
