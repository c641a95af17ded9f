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
        this.group = group;
        this.model = model;
        this.count = count;
        this.lo = lo;
        this.hi = hi;
        this.envelope = new ConvexEnvelope(model, lo, hi);
    }

    Item withCount(int newCount) {
        return new Item(group, model, newCount, lo, hi);
    }

    Item single(double newLo, double newHi) {
        return new Item(group, model, 1, newLo, newHi);
    }
}
