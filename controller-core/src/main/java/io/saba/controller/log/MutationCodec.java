package io.saba.controller.log;

import io.saba.wire.ConnectionKey;
import io.saba.wire.Transport;
import io.saba.controller.state.Mutation;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Binary form of a {@link Mutation}: a type byte, then the fields in declaration order. Log requests carry
 * mutations in this form; journals written before requests were logged hold bare mutations in it too.
 */
public final class MutationCodec {
    private static final byte REGISTER = 1;
    private static final byte DEREGISTER = 2;
    private static final byte OPENED = 3;
    private static final byte CLOSED = 4;
    private static final byte SYNC = 5;

    private MutationCodec() {
    }

    public static void write(Mutation m, DataOutputStream out) throws IOException {
        if (m instanceof Mutation.Register r) {
            out.writeByte(REGISTER);
            out.writeUTF(r.appId());
            out.writeUTF(r.workload());
            out.writeUTF(r.framework());
            out.writeUTF(r.user());
            out.writeInt(r.attempt());
            out.writeUTF(r.tenant());
        } else if (m instanceof Mutation.Deregister d) {
            out.writeByte(DEREGISTER);
            out.writeUTF(d.appId());
            out.writeUTF(d.reason());
        } else if (m instanceof Mutation.Opened o) {
            out.writeByte(OPENED);
            out.writeUTF(o.appId());
            writeKey(o.key(), out);
            out.writeLong(o.seq());
        } else if (m instanceof Mutation.Closed c) {
            out.writeByte(CLOSED);
            out.writeUTF(c.appId());
            writeKey(c.key(), out);
            out.writeLong(c.seq());
        } else if (m instanceof Mutation.Sync s) {
            out.writeByte(SYNC);
            out.writeUTF(s.appId());
            out.writeLong(s.seq());
            out.writeInt(s.open().size());
            for (ConnectionKey k : s.open()) {
                writeKey(k, out);
            }
        }
    }

    public static Mutation read(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        byte type = in.readByte();
        String appId = in.readUTF();
        switch (type) {
            case REGISTER:
                return new Mutation.Register(appId, in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(),
                        in.readUTF());
            case DEREGISTER:
                return new Mutation.Deregister(appId, in.readUTF());
            case OPENED:
                return new Mutation.Opened(appId, readKey(in), in.readLong());
            case CLOSED:
                return new Mutation.Closed(appId, readKey(in), in.readLong());
            case SYNC:
                long seq = in.readLong();
                int n = in.readInt();
                List<ConnectionKey> keys = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    keys.add(readKey(in));
                }
                return new Mutation.Sync(appId, keys, seq);
            default:
                throw new IOException("unknown journal record type " + type);
        }
    }

    private static void writeKey(ConnectionKey k, DataOutputStream out) throws IOException {
        out.writeUTF(k.srcIp());
        out.writeInt(k.srcPort());
        out.writeUTF(k.dstIp());
        out.writeInt(k.dstPort());
        out.writeUTF(k.transport().name());
    }

    private static ConnectionKey readKey(DataInputStream in) throws IOException {
        return new ConnectionKey(in.readUTF(), in.readInt(), in.readUTF(), in.readInt(), Transport.valueOf(in.readUTF()));
    }
}
