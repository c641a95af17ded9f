package io.saba.profiler;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What runs beside the profiled workload during its run at a level: nothing for the paper's cap method, a reference
 * competitor for the corun method ({@link CompetitorLoop}).
 */
public interface Competition {
    /**
     * Starts beside a run that is about to begin.
     *
     * @param log the profiled run's log; whatever runs beside it logs next to it
     */
    Running start(double level, int repetition, Path log) throws IOException;

    /** What runs beside one run. */
    interface Running extends AutoCloseable {
        /**
         * Stops it once the profiled run has ended.
         *
         * @return why the run is not a valid sample (the competitor was not there all along), or null
         */
        String stop();

        /** Stops it without judging (the profile is being interrupted). */
        @Override
        void close();
    }

    /** Nothing beside the run. */
    Competition NONE = (level, repetition, log) -> new Running() {
        @Override
        public String stop() {
            return null;
        }

        @Override
        public void close() {
        }
    };
}
