package io.saba.core.alloc;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Application id → weight at one port, immutable, over two arrays sorted by id: what
 * {@link PortAllocation#appWeights()} holds. A port is recomputed whenever an application joins or leaves it, and
 * hashing every application's id into a fresh map each time cost more than solving the port; lookups here are a
 * binary search, iteration is in id order.
 */
final class AppWeights extends AbstractMap<String, Double> {
    private final String[] ids;
    private final double[] weights;

    /** @param ids sorted, distinct, and never changed afterwards (shared, not copied) */
    AppWeights(String[] ids, double[] weights) {
        if (ids.length != weights.length) {
            throw new IllegalArgumentException(ids.length + " ids and " + weights.length + " weights");
        }
        this.ids = ids;
        this.weights = weights;
    }

    private int indexOf(Object key) {
        return key instanceof String s ? Arrays.binarySearch(ids, s) : -1;
    }

    @Override
    public Double get(Object key) {
        int i = indexOf(key);
        return i >= 0 ? weights[i] : null;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    public int size() {
        return ids.length;
    }

    @Override
    public Set<Entry<String, Double>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, Double>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < ids.length;
                    }

                    @Override
                    public Entry<String, Double> next() {
                        if (next >= ids.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(ids[i], weights[i]);
                    }
                };
            }

            @Override
            public int size() {
                return ids.length;
            }
        };
    }
}
