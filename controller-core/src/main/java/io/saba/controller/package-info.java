/**
 * The Saba controller without a transport: {@link io.saba.controller.SabaController} keeps the picture of
 * applications and connections behind its log and answers {@link io.saba.controller.ControllerApi}, what the
 * transports (module {@code controller-embedded}) call; a {@link io.saba.controller.GroupMembership} (module
 * {@code controller-zk}) makes it one member of a group.
 */
package io.saba.controller;
