/**
 * Read-only HTTP on the JDK's built-in server: Prometheus metrics, the status dashboard (HTML rendered, filtered and
 * paged here, with its styles and live-update script inline) and the same status as raw JSON.
 */
package io.saba.controller.http;
