/**
 * Path resolution: endpoint addresses to topology hosts, host pairs to switch output ports; the topology YAML file
 * and the named shapes from core.
 */
package io.saba.controller.topology;
