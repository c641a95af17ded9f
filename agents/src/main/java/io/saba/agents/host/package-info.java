/**
 * The host agent ({@code saba agent}): announces its host, watches the host's plans, applies them to the host's
 * NICs with the Linux backend, acknowledges them, and restores the NICs when a lease passes without a controller.
 */
package io.saba.agents.host;
