package io.saba.core.solve;

import io.saba.core.model.SensitivityModel;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The envelopes of models on ports' root intervals, kept between ports. A port's root interval [lo, hi] follows
 * from its application count n (with the floor and the capacity), and a fabric has few models and a few hundred
 * distinct counts, so an envelope (a search, for a model with a 1/b term) is built once per (model, n) rather than
 * at every port.
 *
 * <p>Per model an array indexed by n: a lookup is the model's cached hash in a small map and an array read, with no
 * key object per lookup, and nothing is evicted while the models stay (a map bounded at 4,096 (model, lo, hi) keys
 * was cleared over and over when ten models met hundreds of distinct counts).
 *
 * <p>Thread-safe without locks: two threads may build the same envelope, or one may overwrite an array the other
 * just grew, and then an envelope is built again; the envelope is a function of its inputs, so the answers do not
 * depend on it. {@link ConvexEnvelope}'s fields are final, so an envelope read through a race is complete.
 */
final class RootEnvelopes {
    /** Models come and go as tables are reloaded; past this many the map starts again. */
    private static final int MAX_MODELS = 1024;
    /** Envelopes of ports with more applications are built each time (an array per model must stay small). */
    private static final int MAX_COUNT = 1 << 16;

    private final ConcurrentHashMap<SensitivityModel, ByCount> byModel = new ConcurrentHashMap<>();

    /** The envelope of {@code model} on [lo, hi], the root interval of a port of n applications at this capacity. */
    ConvexEnvelope of(SensitivityModel model, int n, double capacity, double lo, double hi) {
        ByCount row = byModel.get(model);
        if (row == null || row.capacity != capacity) { // one capacity per controller; another one starts the row again
            if (byModel.size() >= MAX_MODELS) {
                byModel.clear();
            }
            row = new ByCount(capacity);
            byModel.put(model, row);
        }
        return row.envelope(model, n, lo, hi);
    }

    /** One model's envelopes at one capacity, indexed by the port's application count. */
    private static final class ByCount {
        final double capacity;
        private volatile ConvexEnvelope[] byCount = new ConvexEnvelope[64];

        ByCount(double capacity) {
            this.capacity = capacity;
        }

        ConvexEnvelope envelope(SensitivityModel model, int n, double lo, double hi) {
            ConvexEnvelope[] known = byCount;
            ConvexEnvelope e = n < known.length ? known[n] : null;
            if (e != null) {
                return e;
            }
            e = new ConvexEnvelope(model, lo, hi);
            if (n < MAX_COUNT) {
                if (n >= known.length) {
                    known = Arrays.copyOf(known, Math.max(n + 1, 2 * known.length));
                }
                known[n] = e;
                byCount = known;
            }
            return e;
        }
    }
}
