package io.saba.controller.fabric.infiniband;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * SMPs through libibmad (Debian {@code libibmad5}) called with JNA: no native code of ours to build.
 *
 * <p>{@code ib_portid_t} is handed over as zeroed memory with only {@code lid} set (offset 0); its size, 112
 * bytes on x86-64, was checked against {@code <infiniband/mad.h>} (libibmad 44). LID routing needs the subnet
 * manager to have assigned LIDs, which is the case wherever Saba runs next to OpenSM.
 *
 * <p>Not thread-safe (one umad port, one outstanding MAD): callers serialise.
 */
public final class MadSmp implements Smp {
    private static final int PORTID_BYTES = 112;
    private static final int IB_SMI_CLASS = 0x01;
    private static final int IB_SMI_DIRECT_CLASS = 0x81;

    /** The few libibmad entry points used. */
    public interface LibIbMad extends Library {
        Pointer mad_rpc_open_port(String devName, int devPort, int[] mgmtClasses, int numClasses);

        void mad_rpc_close_port(Pointer port);

        Pointer smp_query_via(Pointer rcvbuf, Pointer portid, int attrid, int mod, int timeout, Pointer srcport);

        Pointer smp_set_via(Pointer buf, Pointer portid, int attrid, int mod, int timeout, Pointer srcport);
    }

    private final LibIbMad mad;
    private final Pointer port;
    private final int timeoutMillis;

    /**
     * @param device        HCA name (e.g. mlx5_0), null for the first one
     * @param devicePort    HCA port, 0 for the first active one
     * @param timeoutMillis per-MAD timeout (libibmad retries on its own)
     */
    public MadSmp(String device, int devicePort, int timeoutMillis) {
        try {
            mad = Native.load("ibmad", LibIbMad.class);
        } catch (UnsatisfiedLinkError e) {
            throw new SmpException("libibmad is not installed (Debian: apt-get install libibmad5): " + e.getMessage(), e);
        }
        int[] classes = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS};
        port = mad.mad_rpc_open_port(device, devicePort, classes, classes.length);
        if (port == null) {
            throw new SmpException("cannot open umad port " + (device == null ? "(first HCA)" : device) + ":"
                    + devicePort + " (no InfiniBand device, no permission on /dev/infiniband/umad*, or ibsim not"
                    + " reachable)");
        }
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public byte[] get(int lid, int attribute, int modifier) {
        Memory buf = new Memory(DATA_BYTES);
        buf.clear();
        Pointer r = mad.smp_query_via(buf, portId(lid), attribute, modifier, timeoutMillis, port);
        if (r == null) {
            throw new SmpException("SMP Get failed (timeout or error status): " + SmpException.what(lid, attribute, modifier));
        }
        return buf.getByteArray(0, DATA_BYTES);
    }

    @Override
    public byte[] set(int lid, int attribute, int modifier, byte[] data) {
        if (data.length != DATA_BYTES) {
            throw new IllegalArgumentException("an SMP payload is " + DATA_BYTES + " bytes, got " + data.length);
        }
        Memory buf = new Memory(DATA_BYTES);
        buf.write(0, data, 0, DATA_BYTES);
        Pointer r = mad.smp_set_via(buf, portId(lid), attribute, modifier, timeoutMillis, port);
        if (r == null) {
            throw new SmpException("SMP Set failed (timeout or error status): " + SmpException.what(lid, attribute, modifier));
        }
        return buf.getByteArray(0, DATA_BYTES);
    }

    private static Memory portId(int lid) {
        if (lid <= 0 || lid >= 0xC000) {
            throw new IllegalArgumentException("not a unicast LID: " + lid);
        }
        Memory p = new Memory(PORTID_BYTES);
        p.clear();
        p.setInt(0, lid);
        return p;
    }

    @Override
    public void close() {
        mad.mad_rpc_close_port(port);
    }
}
