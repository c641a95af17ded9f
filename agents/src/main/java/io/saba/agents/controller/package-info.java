/**
 * The controller's side of host agents ({@code backend: agents}): each host's plan, versioned and sent down its
 * agent's stream, acknowledgements awaited with a bound; the Agents service on the controller's gRPC server, its
 * token check (an agent token binds one host), the agents' status and metrics; switch ports handed to a second
 * backend.
 */
package io.saba.agents.controller;
