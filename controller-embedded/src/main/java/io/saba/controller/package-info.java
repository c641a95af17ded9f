/**
 * The Saba controller: {@link io.saba.controller.SabaController} owns the cluster picture; 
 * {@link io.saba.controller.EmbeddedController} runs a whole controller in-process (ephemeral port) or as the
 * standalone daemon configured by {@link io.saba.controller.ControllerConfig}.
 */
package io.saba.controller;
