package io.saba.controller.grpc;

import io.saba.controller.state.ControllerException;
import io.saba.proto.v1.Connection;
import io.saba.wire.ConnectionKey;
import io.saba.wire.ConnectionProto;

/**
 * Validation of request fields, with messages that name the field and the rule; a connection is read (and its
 * addresses checked and normalised) by the wire's one converter.
 */
final class RequestFields {
    static final int MAX_APP_ID = 256;
    static final int MAX_LABEL = 128;
    static final int MAX_BATCH = 10_000;
    static final int MAX_SIGNALS = 1_000;
    static final int MAX_SYNC = 1_000_000;

    private RequestFields() {
    }

    static String appId(String id) {
        if (id.isEmpty()) {
            throw ControllerException.invalid("app_id is empty");
        }
        return text("app_id", id, MAX_APP_ID);
    }

    /** A workload, framework or user name. Empty is fine (an empty workload is the default workload). */
    static String label(String field, String value) {
        return text(field, value, MAX_LABEL);
    }

    private static String text(String field, String value, int max) {
        if (value.length() > max) {
            throw ControllerException.invalid(field + " is " + value.length() + " characters long; at most "
                    + max + " allowed");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw ControllerException.invalid(field + " contains a control character at index " + i);
            }
        }
        return value;
    }

    /** The key a message names, normalised; a malformed one is refused naming the field (see ConnectionProto). */
    static ConnectionKey connection(Connection c) {
        try {
            return ConnectionProto.fromProto(c);
        } catch (IllegalArgumentException e) {
            throw ControllerException.invalid(e.getMessage());
        }
    }
}
