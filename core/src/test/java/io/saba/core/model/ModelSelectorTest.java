package io.saba.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ModelSelectorTest {
    private static final double[] LEVELS = {5, 10, 25, 50, 75, 90, 100};

    @Test
    void autoChoosesTheLowestHeldOutErrorAmongMonotoneCandidates() {
        ModelSelection s = ModelSelector.select(ModelFitterTest.fig1bSort(), ModelChoice.AUTO);
        assertEquals(7, s.candidates().size(), "poly and monotone-poly k = 1..3, and inverse");
        FittedModel chosen = s.chosen();
        assertTrue(chosen.monotone());
        for (FittedModel c : s.candidates()) {
            if (c.monotone()) {
                assertTrue(chosen.cvRmse() <= c.cvRmse(), chosen.label() + " chosen over " + c.label());
            }
        }
        assertEquals(ModelSelector.CRITERION, s.criterion());
    }

    @Test
    void samplesOfComputePlusTransferChooseTheInverseFamily() {
        Random rnd = new Random(3);
        SensitivityModel truth = SensitivityModel.inverse(0.4, 0.6);
        List<Sample> samples = new ArrayList<>();
        for (double b : LEVELS) {
            for (int r = 0; r < 3; r++) {
                samples.add(new Sample(b, truth.slowdown(b / 100) * (1 + 0.05 * rnd.nextGaussian())));
            }
        }
        assertEquals(ModelFamily.INVERSE, ModelSelector.select(samples, ModelChoice.AUTO).chosen().family());
    }

    @Test
    void thePapersMethodStaysReachable() {
        List<Sample> sort = ModelFitterTest.fig1bSort();
        ModelSelection paper = ModelSelector.select(sort, ModelChoice.paper(3));
        assertEquals(ModelFitter.fit(sort, 3).model(), paper.chosen().model());
        assertEquals("poly k=3", paper.chosen().label());
        ModelSelection anyPoly = ModelSelector.select(sort, ModelChoice.parse("poly", null));
        assertEquals(ModelFamily.POLY, anyPoly.chosen().family(), "a named family is kept even if it rises");
        assertEquals(ModelFamily.MONOTONE_POLY,
                ModelSelector.select(sort, ModelChoice.parse("monotone-poly", 2)).chosen().family());
    }

    @Test
    void tooFewLevelsToCrossValidateFallBackToTheSimplestAndNamedFamiliesExplainWhatIsMissing() {
        List<Sample> two = List.of(new Sample(10, 4), new Sample(100, 1), new Sample(100, 1.1));
        ModelSelection s = ModelSelector.select(two, ModelChoice.AUTO);
        assertEquals(ModelSelector.TOO_FEW_LEVELS, s.criterion());
        assertEquals(2, s.chosen().parameters());
        assertEquals(ModelFamily.INVERSE, s.chosen().family(), "ties in size go to the physical family");
        assertEquals("a degree-3 model needs samples at 4 or more distinct bandwidth levels, got 2 [10.0, 100.0]",
                assertThrows(IllegalArgumentException.class, () -> ModelSelector.select(two, ModelChoice.paper(3)))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> ModelChoice.parse("spline", null));
        assertThrows(IllegalArgumentException.class, () -> ModelChoice.parse("inverse", 2));
    }
}
