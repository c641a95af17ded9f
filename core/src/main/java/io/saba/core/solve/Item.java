package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;

/**
 * {@code count} interchangeable applications of one model, each confined to [lo, hi]: the unit the Eq. 2 branch
 * and bound works on. {@code group} remembers which input group the applications came from.
 */
final class Item {
    final int group;
    final SensitivityModel model;
    final int count;
    final double lo;
    final double hi;
    final ConvexEnvelope envelope;

    Item(int group, SensitivityModel model, int count, double lo, double hi) {
        this(group, count, new ConvexEnvelope(model, lo, hi));
    }

    /** An item on an envelope already built (the solver keeps the root envelopes between ports). */
    Item(int group, int count, ConvexEnvelope envelope) {
        this.group = group;
        this.model = envelope.model;
        this.count = count;
        this.lo = envelope.lo;
        this.hi = envelope.hi;
        this.envelope = envelope;
    }

    Item withCount(int newCount) {
        return new Item(group, newCount, envelope);
    }

    Item single(double newLo, double newHi) {
        return new Item(group, model, 1, newLo, newHi);
    }
}
