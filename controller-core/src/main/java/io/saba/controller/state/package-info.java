/**
 * The controller's picture: applications, their levels and leases, their connections and the ports
 * those cross. {@link io.saba.controller.state.ControllerState} applies {@link io.saba.controller.state.Mutation}s
 * (live or replayed) and reports the ports whose allocation may have changed.
 */
package io.saba.controller.state;
