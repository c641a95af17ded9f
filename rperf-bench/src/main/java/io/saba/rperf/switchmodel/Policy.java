package io.saba.rperf.switchmodel;

/** How an output port picks among input buffers of the same VL whose head wants it. */
public enum Policy {
    /** Oldest arrival at this switch first (ties by packet id); what the paper infers the real switch does. */
    FCFS,
    /** One packet per input buffer in turn, starting after the last one served. */
    RR
}
