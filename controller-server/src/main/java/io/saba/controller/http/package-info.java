/** Read-only HTTP: Prometheus metrics and the status page (HTML and JSON), on the JDK's built-in server. */
package io.saba.controller.http;
