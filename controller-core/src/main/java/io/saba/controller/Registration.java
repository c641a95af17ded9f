package io.saba.controller;

/**
 * What a registration or a heartbeat answers.
 *
 * @param level         the application's priority level (0, the default class, until a plan covers its workload)
 * @param leaseMillis   how long the registration lasts without a heartbeat
 * @param workloadKnown false when the table has no model for the workload (the default model is used)
 */
public record Registration(int level, long leaseMillis, boolean workloadKnown) {
}
