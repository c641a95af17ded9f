/**
 * The distributed, highly available controller: a group of instances that share a log, the sensitivity table and
 * the level plan in ZooKeeper (through Apache Curator) and split the switches among themselves. See
 * docs/controller-group.md for the design.
 */
package io.saba.controller.group;
