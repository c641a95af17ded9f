package io.saba.profiler;

import io.saba.core.corun.TrafficRecord;
import java.io.IOException;

/**
 * Records how a workload occupies its links while the profiler runs it at full rate: its traffic record, which the
 * co-run predictor replays. {@link #NONE} where the profiler cannot see the links (an operator's rate-limit hook).
 */
public interface TrafficRecorder {
    /** Starts watching before a run. */
    Recording start() throws IOException;

    /** A run being watched. */
    interface Recording extends AutoCloseable {
        /**
         * Stops watching and returns the record of the job's own window, or null if nothing usable was seen.
         *
         * @param startedMillis wall-clock start of the job's timed part (epoch milliseconds)
         * @param seconds       its length
         */
        TrafficRecord stop(long startedMillis, double seconds);

        @Override
        void close();
    }

    /** Records nothing. */
    TrafficRecorder NONE = () -> new Recording() {
        @Override
        public TrafficRecord stop(long startedMillis, double seconds) {
            return null;
        }

        @Override
        public void close() {
        }
    };
}
