package io.saba.controller.group;

/** Told when a member starts and stops programming a switch (logs; tests check the fence with it). */
public interface OwnershipListener {
    void started(String member, String sw, long nanos);

    void stopped(String member, String sw, long nanos);
}
