package io.saba.controller.signals;

import io.saba.wire.WorkSignals;

/** One unit's work signals as a client reported them, for application {@code appId}. */
public record ReportedSignals(String appId, WorkSignals signals) {
}
