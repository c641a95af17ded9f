package io.saba.client;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import java.io.File;
import java.util.Optional;

/**
 * Gives an RDMA connection its level's tag, through librdmacm / libibverbs called with JNA (no native code of ours).
 * Native objects are passed as addresses ({@code long}), so callers need no JNA types: DiSNI's {@code RdmaCmId} and
 * {@code IbvQP} expose theirs ({@code getObjId()}).
 *
 * <ul>
 *   <li>{@link #setTypeOfService}: RoCE; {@code rdma_set_option(RDMA_OPTION_ID_TOS)} on a CM id, before
 *       {@code rdma_resolve_route}. The traffic class then rides in every packet's GRH.</li>
 *   <li>{@link #moveToRtr}: InfiniBand; for a QP whose transitions the application drives itself: asks librdmacm
 *       for the RTR attributes ({@code rdma_init_qp_attr}), puts the level's SL in the address vector and calls
 *       {@code ibv_modify_qp}. A QP that librdmacm moves to RTR itself (inside {@code rdma_connect} /
 *       {@code rdma_accept}, as DiSNI's endpoints do) gets the SL of the path record the subnet administrator
 *       returned, which Saba does not control (see the README).</li>
 *   <li>{@link #setServiceLevel}: raw verbs; writes the SL into the caller's own {@code struct ibv_qp_attr} before
 *       it calls {@code ibv_modify_qp(…, IBV_QPS_RTR)}.</li>
 * </ul>
 * What an RDMA connection gets: the SL (or traffic class) of the level passed here, for the QP's whole life, since
 * an SL cannot change after RTR. That stays right because the controller never renumbers a running application's
 * level; pass {@link SabaApplication#level()} once {@link SabaApplication#assigned()} has completed, as a QP set up
 * at level 0 stays in the default class.
 *
 * <p>Struct offsets were taken from {@code <infiniband/verbs.h>} of rdma-core 44 (x86-64): {@code ibv_qp_attr} is
 * 144 bytes, {@code qp_state} at 0, {@code ah_attr} at 56; in {@code ibv_ah_attr} {@code sl} is at 26 and the GRH's
 * {@code traffic_class} at 22.
 */
public final class RdmaTagging {
    static final int QP_ATTR_BYTES = 144;
    static final int QP_STATE_OFFSET = 0;
    static final int AH_SL_OFFSET = 56 + 26;
    static final int AH_TRAFFIC_CLASS_OFFSET = 56 + 22;
    private static final int IBV_QPS_RTR = 2;
    private static final int RDMA_OPTION_ID = 0;
    private static final int RDMA_OPTION_ID_TOS = 0;

    private RdmaTagging() {
    }

    interface RdmaCm extends Library {
        int rdma_set_option(Pointer id, int level, int optname, Pointer optval, long optlen);

        int rdma_init_qp_attr(Pointer id, Pointer qpAttr, IntByReference mask);
    }

    interface Verbs extends Library {
        int ibv_modify_qp(Pointer qp, Pointer attr, int mask);
    }

    private static final class Libs {
        static final RdmaCm CM = Native.load("rdmacm", RdmaCm.class);
        static final Verbs VERBS = Native.load("ibverbs", Verbs.class);
    }

    /** Why tagging cannot work in this process (empty when it can): JNA, the libraries, an RDMA device. */
    public static Optional<String> unavailable() {
        try {
            Class.forName("com.sun.jna.Native");
        } catch (ClassNotFoundException e) {
            return Optional.of("JNA is not on the class path (add net.java.dev.jna:jna)");
        }
        try {
            Object unused = Libs.CM;
            unused = Libs.VERBS;
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return Optional.of("librdmacm/libibverbs cannot be loaded (Debian: librdmacm1, libibverbs1): "
                    + e.getMessage());
        }
        String[] devices = new File("/sys/class/infiniband").list();
        if (devices == null || devices.length == 0) {
            return Optional.of("no RDMA device (/sys/class/infiniband is empty or missing)");
        }
        return Optional.empty();
    }

    /**
     * Sets the IP traffic class (TOS byte) of a CM id's connection; call before {@code rdma_resolve_route}.
     *
     * @param cmId address of a {@code struct rdma_cm_id}
     * @param tos  0..255, e.g. {@link RdmaServiceLevel#trafficClass}
     */
    public static void setTypeOfService(long cmId, int tos) {
        requireAddress(cmId, "cmId");
        if (tos < 0 || tos > 255) {
            throw new IllegalArgumentException("TOS is a byte (0..255), got " + tos);
        }
        Memory v = new Memory(1);
        v.setByte(0, (byte) tos);
        int rc = Libs.CM.rdma_set_option(new Pointer(cmId), RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, v, 1);
        if (rc != 0) {
            throw new IllegalStateException("rdma_set_option(TOS " + tos + ") failed: errno " + Native.getLastError());
        }
    }

    /**
     * Moves a QP the application manages to RTR with the level's SL in its address vector.
     *
     * @param cmId address of the connection's {@code struct rdma_cm_id} (route resolved / request received)
     * @param qp   address of its {@code struct ibv_qp}
     * @param level the application's priority level
     */
    public static void moveToRtr(long cmId, long qp, int level) {
        requireAddress(cmId, "cmId");
        requireAddress(qp, "qp");
        int sl = RdmaServiceLevel.serviceLevel(level);
        Memory attr = new Memory(QP_ATTR_BYTES);
        attr.clear();
        attr.setInt(QP_STATE_OFFSET, IBV_QPS_RTR);
        IntByReference mask = new IntByReference();
        int rc = Libs.CM.rdma_init_qp_attr(new Pointer(cmId), attr, mask);
        if (rc != 0) {
            throw new IllegalStateException("rdma_init_qp_attr(RTR) failed: errno " + Native.getLastError());
        }
        setServiceLevel(attr, sl);
        rc = Libs.VERBS.ibv_modify_qp(new Pointer(qp), attr, mask.getValue());
        if (rc != 0) {
            throw new IllegalStateException("ibv_modify_qp(RTR, SL " + sl + ") failed: " + rc);
        }
    }

    /**
     * Writes the level's SL into a {@code struct ibv_qp_attr} the caller is about to pass to {@code ibv_modify_qp}
     * for RTR.
     *
     * @param qpAttr address of the caller's {@code struct ibv_qp_attr} (144 bytes)
     */
    public static void setServiceLevel(long qpAttr, int level) {
        requireAddress(qpAttr, "qpAttr");
        setServiceLevel(new Pointer(qpAttr), RdmaServiceLevel.serviceLevel(level));
    }

    private static void setServiceLevel(Pointer attr, int sl) {
        attr.setByte(AH_SL_OFFSET, (byte) sl);
    }

    private static void requireAddress(long address, String what) {
        if (address == 0) {
            throw new IllegalArgumentException(what + " is a null pointer");
        }
    }
}
