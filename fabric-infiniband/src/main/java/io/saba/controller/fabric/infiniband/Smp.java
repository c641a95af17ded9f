package io.saba.controller.fabric.infiniband;

/**
 * Subnet management packets to one LID: Get and Set of a 64-byte attribute payload. Implementations: {@link MadSmp}
 * (libibmad through JNA, in this process) and {@link SmpAgent} (the same in a child process, so the umad access,
 * or ibsim's LD_PRELOAD, stays out of the controller's JVM).
 *
 * <p>Errors are {@link SmpException}s naming the LID, attribute and modifier; a call never blocks longer than the
 * implementation's timeout.
 */
public interface Smp extends AutoCloseable {
    /** SMP attribute ids (IBA 14.2.5). */
    int ATTR_PORT_INFO = 0x15;
    int ATTR_SL_TO_VL = 0x17;
    int ATTR_VL_ARBITRATION = 0x18;
    /** Bytes of an SMP's attribute payload. */
    int DATA_BYTES = 64;

    byte[] get(int lid, int attribute, int modifier);

    /** Sends a Set; returns the payload of the GetResp the switch answers with (what it now holds). */
    byte[] set(int lid, int attribute, int modifier, byte[] data);

    @Override
    void close();
}
