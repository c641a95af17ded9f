package io.saba.core.corun;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.saba.core.model.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class NetworkBoundTest {
    @Test
    void recoversTheShareOfAnExactCurve() {
        double c = 0.4;
        List<Sample> s = List.of(new Sample(10, 1 - c + c / 0.1), new Sample(25, 1 - c + c / 0.25),
                new Sample(50, 1 - c + c / 0.5), new Sample(100, 1));
        assertEquals(c, NetworkBound.of(s), 1e-12);
    }

    @Test
    void clipsToTheUnitInterval() {
        assertEquals(0, NetworkBound.of(List.of(new Sample(50, 0.8), new Sample(100, 1))), 0);
        assertEquals(1, NetworkBound.of(List.of(new Sample(50, 5), new Sample(100, 1))), 0);
        assertEquals(0, NetworkBound.of(List.of(new Sample(100, 1))), 0);
    }
}
