package io.saba.rperf.switchmodel;

/**
 * One mixed-traffic run: an LSG and {@code bsgs} BSGs converging on one destination, as in RPerf §VII-VIII.
 *
 * @param twoHop        false: all sources on one switch; true: LSG and two BSGs on an upstream switch,
 *                      the other BSGs and the destination on the downstream one (paper §VIII-B)
 * @param policy        output arbitration within a VL on every switch
 * @param bsgs          honest BSGs (SL0)
 * @param bsgPayload    BSG message (= packet) payload
 * @param lsgPayload    LSG message payload
 * @param dedicatedVl   LSG on SL1 mapped to a high-priority VL1; BSGs on SL0 to low-priority VL0
 * @param highLimit     VLArb limit of high priority (4 KiB units, 255 unlimited); used with dedicatedVl
 * @param pretendLsgs   extra BSGs that send small messages on the LSG's SL (gaming, §VIII-C)
 * @param pretendPayload payload of a pretend LSG's messages
 * @param pretendGapPs  minimum gap between a pretend LSG's messages (a NIC message-rate cap), 0 = none
 * @param bsgNic        what a BSG's NIC can offer (the model's links and switch have no such limit)
 */
public record MixedTrafficConfig(ModelParams params, boolean twoHop, Policy policy, int bsgs, int bsgPayload,
                                 int lsgPayload, boolean dedicatedVl, int highLimit, int pretendLsgs,
                                 int pretendPayload, long pretendGapPs, long warmupPs, long durationPs,
                                 NicLimit bsgNic) {

    /** The paper's converged setup: FCFS, 4096 B BSGs, 64 B LSG, one shared VL. */
    public static MixedTrafficConfig converged(int bsgs, Policy policy) {
        return new MixedTrafficConfig(ModelParams.paperDefaults(), false, policy, bsgs, 4096, 64, false,
                VlArbitration.UNLIMITED, 0, 256, 0, 200 * ModelParams.PS_PER_US, 5_000 * ModelParams.PS_PER_US,
                NicLimit.NONE);
    }

    public MixedTrafficConfig withTwoHop(boolean v) {
        return new MixedTrafficConfig(params, v, policy, bsgs, bsgPayload, lsgPayload, dedicatedVl, highLimit,
                pretendLsgs, pretendPayload, pretendGapPs, warmupPs, durationPs, bsgNic);
    }

    public MixedTrafficConfig withDedicatedVl(boolean v, int limit) {
        return new MixedTrafficConfig(params, twoHop, policy, bsgs, bsgPayload, lsgPayload, v, limit,
                pretendLsgs, pretendPayload, pretendGapPs, warmupPs, durationPs, bsgNic);
    }

    public MixedTrafficConfig withPretend(int count, int payload, long gapPs) {
        return new MixedTrafficConfig(params, twoHop, policy, bsgs, bsgPayload, lsgPayload, dedicatedVl, highLimit,
                count, payload, gapPs, warmupPs, durationPs, bsgNic);
    }

    public MixedTrafficConfig withBsgPayload(int payload) {
        return new MixedTrafficConfig(params, twoHop, policy, bsgs, payload, lsgPayload, dedicatedVl, highLimit,
                pretendLsgs, pretendPayload, pretendGapPs, warmupPs, durationPs, bsgNic);
    }

    public MixedTrafficConfig withTiming(long warmup, long duration) {
        return new MixedTrafficConfig(params, twoHop, policy, bsgs, bsgPayload, lsgPayload, dedicatedVl, highLimit,
                pretendLsgs, pretendPayload, pretendGapPs, warmup, duration, bsgNic);
    }

    public MixedTrafficConfig withBsgNic(NicLimit nic) {
        return new MixedTrafficConfig(params, twoHop, policy, bsgs, bsgPayload, lsgPayload, dedicatedVl, highLimit,
                pretendLsgs, pretendPayload, pretendGapPs, warmupPs, durationPs, nic);
    }

    public MixedTrafficConfig withParams(ModelParams p) {
        return new MixedTrafficConfig(p, twoHop, policy, bsgs, bsgPayload, lsgPayload, dedicatedVl, highLimit,
                pretendLsgs, pretendPayload, pretendGapPs, warmupPs, durationPs, bsgNic);
    }
}
