package io.saba.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.saba.core.model.Sample;
import io.saba.profiler.RunRecord.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlowdownSamplesTest {
    @Test
    void slowdownIsAgainstTheMedianUnthrottledRunAndFailuresAreNotSamples() {
        List<RunRecord> runs = List.of(
                RunRecord.completed(100, 0, 10.0),
                RunRecord.completed(100, 1, 30.0), // one slow baseline run must not skew every slowdown
                RunRecord.completed(100, 2, 11.0),
                RunRecord.completed(25, 0, 34.0),
                RunRecord.failed(25, 1, Outcome.TIMED_OUT, "no completion within 600 s"),
                RunRecord.failed(10, 0, Outcome.FAILED, "exit 1"));
        List<Sample> samples = SlowdownSamples.of(runs);
        assertEquals(4, samples.size());
        assertEquals(new Sample(25, 34.0 / 11.0), samples.get(3));
        assertEquals(1.0, samples.get(2).slowdown(), 1e-12);
    }

    @Test
    void refusesWithoutABaselineAndRejectsImpossibleTimes() {
        assertThrows(IllegalStateException.class, () -> SlowdownSamples.of(List.of(RunRecord.completed(50, 0, 3))));
        assertThrows(IllegalArgumentException.class, () -> RunRecord.completed(50, 0, -1));
    }
}
