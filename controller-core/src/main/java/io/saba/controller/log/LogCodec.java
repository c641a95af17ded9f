package io.saba.controller.log;

import io.saba.controller.estimate.LearnedWorkload;
import io.saba.controller.estimate.WorkloadObservation;
import io.saba.controller.state.Mutation;
import io.saba.core.alloc.LevelMode;
import io.saba.core.corun.CorunProfile;
import io.saba.core.estimate.Observation;
import io.saba.core.corun.TrafficRecord;
import io.saba.core.model.SensitivityModel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Binary form of log requests. A group's log entry is a format byte, the writer's nonce (so the writer recognises
 * its own entry when it comes back through the log), then the requests; a journal record is one request
 * ({@link #writeRequest}). Mutations inside requests use {@link MutationCodec}.
 */
public final class LogCodec {
    /** 2: tables carry co-run profiles. */
    private static final byte FORMAT = 2;
    private static final byte CALL = 1;
    private static final byte RENEW = 2;
    private static final byte EXPIRE = 3;
    private static final byte TABLE = 4;
    private static final byte PLAN = 5;
    private static final byte OBSERVED = 6;
    private static final byte LEARNED = 7;
    /** OBSERVED and LEARNED with each observation's signal; the older types still read, as wait observations. */
    private static final byte OBSERVED_SIGNAL = 8;
    private static final byte LEARNED_SIGNAL = 9;
    /**
     * OBSERVED_SIGNAL with each unit's application, and LEARNED_SIGNAL with each workload's runs (its co-run
     * profile's units); the older types still read, without them.
     */
    private static final byte OBSERVED_APP = 10;
    private static final byte LEARNED_APP = 11;
    /** PLAN whose members are applications ({@code level-per: application}); the same fields. */
    private static final byte PLAN_APPS = 12;

    /** A decoded entry. */
    public record Entry(String nonce, List<LogRequest> requests) {
    }

    private LogCodec() {
    }

    public static byte[] encode(String nonce, List<LogRequest> requests) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeUTF(nonce);
            out.writeInt(requests.size());
            for (LogRequest r : requests) {
                writeRequest(r, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static Entry decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IOException("unknown log entry format " + format
                        + " (written by a newer Saba? every member of a group must run the same version)");
            }
            String nonce = in.readUTF();
            int n = in.readInt();
            List<LogRequest> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(readRequest(in));
            }
            return new Entry(nonce, out);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt log entry: " + e.getMessage(), e);
        }
    }

    /** One request: a type byte, then its fields. */
    public static void writeRequest(LogRequest r, DataOutputStream out) throws IOException {
        if (r instanceof LogRequest.Call c) {
            out.writeByte(CALL);
            out.writeUTF(c.tenant());
            out.writeByte(c.kind().ordinal());
            out.writeInt(c.mutations().size());
            ByteArrayOutputStream one = new ByteArrayOutputStream(128);
            DataOutputStream oneOut = new DataOutputStream(one);
            for (Mutation m : c.mutations()) {
                one.reset();
                MutationCodec.write(m, oneOut);
                oneOut.flush();
                out.writeInt(one.size());
                one.writeTo(out);
            }
        } else if (r instanceof LogRequest.Renew rn) {
            out.writeByte(RENEW);
            writeStrings(rn.tenantOfApp(), out);
        } else if (r instanceof LogRequest.Expire ex) {
            out.writeByte(EXPIRE);
            writeStrings(ex.tenantOfApp(), out);
        } else if (r instanceof LogRequest.Table t) {
            out.writeByte(TABLE);
            writeModels(t.models(), out);
            out.writeInt(t.profiles().size());
            for (Map.Entry<String, CorunProfile> e : t.profiles().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeDouble(e.getValue().networkBound());
                TrafficRecord record = e.getValue().record();
                out.writeDouble(record.intervalSeconds());
                double[] u = record.utilisation();
                out.writeInt(u.length);
                for (double x : u) {
                    out.writeDouble(x);
                }
            }
        } else if (r instanceof LogRequest.Plan p) {
            out.writeByte(p.mode() == LevelMode.APPLICATION ? PLAN_APPS : PLAN);
            out.writeInt(p.levelOfWorkload().size());
            for (Map.Entry<String, Integer> e : p.levelOfWorkload().entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue());
            }
            out.writeInt(p.centroids().size());
            for (Map.Entry<Integer, SensitivityModel> e : p.centroids().entrySet()) {
                out.writeInt(e.getKey());
                writeModel(e.getValue(), out);
            }
            writeModels(p.plannedFor(), out);
        } else if (r instanceof LogRequest.Observed o) {
            out.writeByte(OBSERVED_APP);
            out.writeInt(o.units().size());
            for (WorkloadObservation u : o.units()) {
                out.writeUTF(u.workload());
                out.writeUTF(u.app());
                writeObservation(u.observation(), out);
            }
        } else if (r instanceof LogRequest.Learned l) {
            out.writeByte(LEARNED_APP);
            out.writeInt(l.workloads().size());
            for (LearnedWorkload w : l.workloads()) {
                out.writeUTF(w.workload());
                out.writeInt(w.window().size());
                for (Observation o : w.window()) {
                    writeObservation(o, out);
                }
                out.writeInt(w.contradicting());
                out.writeInt(w.agreeing());
                out.writeBoolean(w.drifting());
                out.writeBoolean(w.adopted() != null);
                if (w.adopted() != null) {
                    writeModel(w.adopted(), out);
                }
                out.writeInt(w.runs().size());
                for (Map.Entry<String, List<Observation>> run : w.runs().entrySet()) {
                    out.writeUTF(run.getKey());
                    out.writeInt(run.getValue().size());
                    for (Observation o : run.getValue()) {
                        writeObservation(o, out);
                    }
                }
                out.writeUTF(w.profiledApp());
                out.writeInt(w.profiledUnits());
            }
        }
    }

    public static LogRequest readRequest(DataInputStream in) throws IOException {
        byte type = in.readByte();
        switch (type) {
            case CALL: {
                String tenant = in.readUTF();
                LogRequest.Kind kind = LogRequest.Kind.values()[in.readByte()];
                int n = in.readInt();
                List<Mutation> ms = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    byte[] one = new byte[in.readInt()];
                    in.readFully(one);
                    ms.add(MutationCodec.read(one));
                }
                return new LogRequest.Call(tenant, kind, ms);
            }
            case RENEW:
                return new LogRequest.Renew(readStrings(in));
            case EXPIRE:
                return new LogRequest.Expire(readStrings(in));
            case TABLE:
                SortedMap<String, SensitivityModel> models = readModels(in);
                SortedMap<String, CorunProfile> profiles = new TreeMap<>();
                for (int i = in.readInt(); i > 0; i--) {
                    String workload = in.readUTF();
                    double networkBound = in.readDouble();
                    double interval = in.readDouble();
                    double[] u = new double[in.readInt()];
                    for (int k = 0; k < u.length; k++) {
                        u[k] = in.readDouble();
                    }
                    profiles.put(workload, new CorunProfile(new TrafficRecord(interval, u), networkBound));
                }
                return new LogRequest.Table(models, profiles);
            case PLAN:
            case PLAN_APPS: {
                Map<String, Integer> levels = new TreeMap<>();
                for (int i = in.readInt(); i > 0; i--) {
                    levels.put(in.readUTF(), in.readInt());
                }
                Map<Integer, SensitivityModel> centroids = new TreeMap<>();
                for (int i = in.readInt(); i > 0; i--) {
                    centroids.put(in.readInt(), readModel(in));
                }
                return new LogRequest.Plan(levels, centroids, readModels(in),
                        type == PLAN_APPS ? LevelMode.APPLICATION : LevelMode.WORKLOAD);
            }
            case OBSERVED:
            case OBSERVED_SIGNAL:
            case OBSERVED_APP: {
                boolean signal = type != OBSERVED;
                List<WorkloadObservation> units = new ArrayList<>();
                for (int i = in.readInt(); i > 0; i--) {
                    String workload = in.readUTF();
                    String app = type == OBSERVED_APP ? in.readUTF() : "";
                    units.add(new WorkloadObservation(workload, app, readObservation(in, signal)));
                }
                return new LogRequest.Observed(units);
            }
            case LEARNED:
            case LEARNED_SIGNAL:
            case LEARNED_APP: {
                boolean signal = type != LEARNED;
                List<LearnedWorkload> workloads = new ArrayList<>();
                for (int i = in.readInt(); i > 0; i--) {
                    String workload = in.readUTF();
                    List<Observation> window = new ArrayList<>();
                    for (int k = in.readInt(); k > 0; k--) {
                        window.add(readObservation(in, signal));
                    }
                    int contradicting = in.readInt();
                    int agreeing = in.readInt();
                    boolean drifting = in.readBoolean();
                    SensitivityModel adopted = in.readBoolean() ? readModel(in) : null;
                    if (type != LEARNED_APP) {
                        workloads.add(new LearnedWorkload(workload, window, contradicting, agreeing, drifting,
                                adopted));
                        continue;
                    }
                    Map<String, List<Observation>> runs = new LinkedHashMap<>();
                    for (int r = in.readInt(); r > 0; r--) {
                        String app = in.readUTF();
                        List<Observation> run = new ArrayList<>();
                        for (int k = in.readInt(); k > 0; k--) {
                            run.add(readObservation(in, true));
                        }
                        runs.put(app, run);
                    }
                    workloads.add(new LearnedWorkload(workload, window, contradicting, agreeing, drifting, adopted,
                            runs, in.readUTF(), in.readInt()));
                }
                return new LogRequest.Learned(workloads);
            }
            default:
                throw new IOException("unknown log request type " + type);
        }
    }

    private static void writeStrings(Map<String, String> m, DataOutputStream out) throws IOException {
        out.writeInt(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    private static Map<String, String> readStrings(DataInputStream in) throws IOException {
        Map<String, String> m = new TreeMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            m.put(in.readUTF(), in.readUTF());
        }
        return m;
    }

    private static void writeModels(SortedMap<String, SensitivityModel> m, DataOutputStream out) throws IOException {
        out.writeInt(m.size());
        for (Map.Entry<String, SensitivityModel> e : m.entrySet()) {
            out.writeUTF(e.getKey());
            writeModel(e.getValue(), out);
        }
    }

    private static SortedMap<String, SensitivityModel> readModels(DataInputStream in) throws IOException {
        SortedMap<String, SensitivityModel> m = new TreeMap<>();
        for (int i = in.readInt(); i > 0; i--) {
            m.put(in.readUTF(), readModel(in));
        }
        return m;
    }

    private static void writeObservation(Observation o, DataOutputStream out) throws IOException {
        out.writeLong(o.runMillis());
        out.writeLong(o.networkWaitMillis());
        out.writeDouble(o.share());
        out.writeLong(o.bytes());
        out.writeByte(o.signal().ordinal());
    }

    /** @param signal whether the signal byte follows (entries written before it was logged have none: wait) */
    private static Observation readObservation(DataInputStream in, boolean signal) throws IOException {
        try {
            long run = in.readLong();
            long wait = in.readLong();
            double share = in.readDouble();
            long bytes = in.readLong();
            Observation.Signal[] signals = Observation.Signal.values();
            int s = signal ? in.readByte() : Observation.Signal.NETWORK_WAIT.ordinal();
            if (s < 0 || s >= signals.length) {
                throw new IOException("unknown observation signal " + s);
            }
            return new Observation(run, wait, share, bytes, signals[s]);
        } catch (IllegalArgumentException e) {
            throw new IOException("an observation out of range: " + e.getMessage(), e);
        }
    }

    private static void writeModel(SensitivityModel m, DataOutputStream out) throws IOException {
        double[] c = m.coefficients();
        out.writeByte(c.length);
        for (double x : c) {
            out.writeDouble(x);
        }
    }

    private static SensitivityModel readModel(DataInputStream in) throws IOException {
        double[] c = new double[in.readByte()];
        for (int i = 0; i < c.length; i++) {
            c[i] = in.readDouble();
        }
        return SensitivityModel.of(c);
    }
}
