package io.saba.flink;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.traces.SpanBuilder;

/**
 * A task's {@code Shuffle.Netty.Input} metric group as Flink builds it, which also keeps the counters created in it,
 * so that the task's bytes and buffers read from other TaskManagers and from its own can be read at its end. Flink
 * registers those counters ({@code numBytesInRemote}, {@code numBytesInLocal}, {@code numBuffersInRemote},
 * {@code numBuffersInLocal}; Flink 1.20's {@code InputChannelMetrics}) in this group and in the task's IO group, and
 * a metric group offers no way to read a metric back by name. Everything is passed on to Flink's group unchanged,
 * so the metrics appear in Flink's reporters and web UI as they do without Saba.
 */
final class InputCounters implements MetricGroup {
    private final MetricGroup group;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    InputCounters(MetricGroup group) {
        this.group = group;
    }

    /** A counter created in this group, or 0 when there is none. */
    long count(String name) {
        Counter c = counters.get(name);
        return c == null ? 0 : c.getCount();
    }

    @Override
    public Counter counter(String name) {
        return kept(name, group.counter(name));
    }

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        return kept(name, group.counter(name, counter));
    }

    private <C extends Counter> C kept(String name, C counter) {
        counters.putIfAbsent(name, counter); // Flink keeps the first of two metrics under one name, as here
        return counter;
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        return group.gauge(name, gauge);
    }

    @Override
    public <H extends Histogram> H histogram(String name, H histogram) {
        return group.histogram(name, histogram);
    }

    @Override
    public <M extends Meter> M meter(String name, M meter) {
        return group.meter(name, meter);
    }

    @Override
    public void addSpan(SpanBuilder spanBuilder) {
        group.addSpan(spanBuilder);
    }

    @Override
    public MetricGroup addGroup(String name) {
        return group.addGroup(name);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
        return group.addGroup(key, value);
    }

    @Override
    public String[] getScopeComponents() {
        return group.getScopeComponents();
    }

    @Override
    public Map<String, String> getAllVariables() {
        return group.getAllVariables();
    }

    @Override
    public String getMetricIdentifier(String metricName) {
        return group.getMetricIdentifier(metricName);
    }

    @Override
    public String getMetricIdentifier(String metricName, CharacterFilter filter) {
        return group.getMetricIdentifier(metricName, filter);
    }
}
