package io.saba.wire;

import java.util.regex.Pattern;

/**
 * The one converter between {@link WorkSignals} and its saba.v1 message, used by the client to send and by the
 * controller to read. Reading checks what the contract bounds, with messages naming the field and the rule, so a
 * client cannot grow the controller's memory with one report.
 */
public final class SignalsProto {
    public static final int MAX_UNIT = 256;
    public static final int MAX_NAME = 256;
    public static final int MAX_KINDS = 32;
    private static final Pattern KIND = Pattern.compile("[a-z0-9_]{1,64}");

    private SignalsProto() {
    }

    public static io.saba.proto.v1.WorkSignals toProto(String appId, WorkSignals s) {
        return io.saba.proto.v1.WorkSignals.newBuilder().setAppId(appId).setUnit(s.unit()).setName(s.name())
                .setEndUnixMillis(s.endUnixMillis()).setTasks(s.tasks()).setDurationMillis(s.durationMillis())
                .setRunMillis(s.runMillis()).setNetworkWaitMillis(s.networkWaitMillis())
                .putAllTimeMillis(s.timeMillis()).putAllBytes(s.bytes()).putAllCounts(s.counts()).build();
    }

    /**
     * The signals a message carries (its {@code app_id} is the caller's business).
     *
     * @throws IllegalArgumentException naming the field and the rule it breaks
     */
    public static WorkSignals fromProto(io.saba.proto.v1.WorkSignals p) {
        if (p.getUnit().isEmpty()) {
            throw new IllegalArgumentException("work signals without a unit");
        }
        text("unit", p.getUnit(), MAX_UNIT);
        text("name", p.getName(), MAX_NAME);
        return new WorkSignals(p.getUnit(), p.getName(), p.getEndUnixMillis(), p.getTasks(),
                count("duration_millis", p.getDurationMillis()), count("run_millis", p.getRunMillis()),
                count("network_wait_millis", p.getNetworkWaitMillis()), kinds("time_millis", p.getTimeMillisMap()),
                kinds("bytes", p.getBytesMap()), kinds("counts", p.getCountsMap()));
    }

    private static java.util.Map<String, Long> kinds(String field, java.util.Map<String, Long> m) {
        if (m.size() > MAX_KINDS) {
            throw new IllegalArgumentException(field + " has " + m.size() + " kinds; at most " + MAX_KINDS
                    + " allowed");
        }
        for (var e : m.entrySet()) {
            if (!KIND.matcher(e.getKey()).matches()) {
                throw new IllegalArgumentException(field + " kind '" + shortened(e.getKey())
                        + "' is not 1-64 characters of a-z, 0-9 and _");
            }
            count(field + "[" + e.getKey() + "]", e.getValue());
        }
        return m;
    }

    /** A uint64 on the wire: above 2^63 - 1 reads negative here, and no real count is that large. */
    private static long count(String field, long v) {
        if (v < 0) {
            throw new IllegalArgumentException(field + " is " + Long.toUnsignedString(v) + ", beyond 2^63 - 1");
        }
        return v;
    }

    private static void text(String field, String s, int max) {
        if (s.length() > max) {
            throw new IllegalArgumentException(field + " is " + s.length() + " characters long; at most " + max
                    + " allowed");
        }
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                throw new IllegalArgumentException(field + " contains a control character at index " + i);
            }
        }
    }

    private static String shortened(String s) {
        return s.length() <= 64 ? s : s.substring(0, 64) + "…";
    }
}
