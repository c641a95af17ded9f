package io.saba.flink;

import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.shuffle.NettyShuffleDescriptor;

/**
 * Flink's Netty descriptor plus what the producing TaskManager needs to tag the partition's data: the job and the
 * IP TOS byte of its level when the partition was registered. A subclass (not a wrapper) because Flink's Netty
 * environment accepts any {@code instanceof NettyShuffleDescriptor}, so consumers and producers need no change.
 */
public final class SabaShuffleDescriptor extends NettyShuffleDescriptor {
    private static final long serialVersionUID = 1L;

    private final JobID jobId;
    private final int level;
    private final int tos;

    SabaShuffleDescriptor(NettyShuffleDescriptor netty, PartitionConnectionInfo connectionInfo, JobID jobId,
                          int level, int tos) {
        super(netty.storesLocalResourcesOn().orElseThrow(), connectionInfo, netty.getResultPartitionID(),
                netty.getTierShuffleDescriptors());
        this.jobId = jobId;
        this.level = level;
        this.tos = tos;
    }

    public JobID jobId() {
        return jobId;
    }

    public int level() {
        return level;
    }

    /** The IP TOS byte (DSCP in the upper six bits) of {@link #level()}. */
    public int tos() {
        return tos;
    }

    @Override
    public String toString() {
        return "SabaShuffleDescriptor{" + getResultPartitionID() + ", job=" + jobId + ", level=" + level + ", tos="
                + tos + "}";
    }
}
