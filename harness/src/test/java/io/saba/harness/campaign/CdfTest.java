package io.saba.harness.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.YAxisTicks;

/** Issue 21 part 4: a CDF never exceeds 1, and its plot's axis says so. */
class CdfTest {
    /** 500 speedups with ties, like a Fig. 8 campaign's setups. */
    private static List<Double> setups(int n) {
        Random r = new Random(21);
        List<Double> xs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            xs.add(Math.round((0.7 + 0.5 * r.nextDouble()) * 100) / 100.0); // two decimals: ties
        }
        xs.sort(null);
        return xs;
    }

    @Test
    void theCdfRisesToExactlyOneAndNeverAbove() {
        for (int n : new int[] {1, 3, 7, 12, 500, 1000}) {
            for (List<double[]> curve : List.of(Cdf.points(setups(n)), Cdf.steps(setups(n)))) {
                double last = 0;
                for (double[] p : curve) {
                    assertTrue(p[1] >= last, "monotone at n=" + n);
                    assertTrue(p[1] <= 1.0, "never above 1: " + p[1]);
                    last = p[1];
                }
                assertEquals(1.0, last, 0.0, "ends at exactly 1, n=" + n);
            }
            List<double[]> points = Cdf.points(setups(n));
            assertEquals(n, points.size());
            assertEquals(1.0 / n, points.get(0)[1], 0.0);
        }
        String[] csv = Cdf.csv("speedup", setups(500)).split("\n");
        assertEquals("speedup,cdf", csv[0]);
        assertEquals(501, csv.length);
        assertTrue(csv[500].endsWith(",1.0000"), csv[500]);
    }

    /**
     * The drawn axis: every labelled y tick at the height of its label. XChart once put ticks on the CDF's own equally
     * spaced values (every 0.026 for 500 setups) and the "0.0" pattern labelled them as tenths, so 1.0 sat at 0.96
     * and the curve's end read 1.04.
     */
    @Test
    void theCdfPlotsTicksSitAtTheirLabelledHeights() {
        for (int n : new int[] {12, 100, 500}) {
            for (List<Plots.Reference> refs : List.of(List.<Plots.Reference>of(), PaperFigures.fig8bReferences())) {
                XYChart c = Plots.cdfChart("t", "speedup", java.util.Map.of("ours", setups(n)), refs);
                Map<String, Double> off = YAxisTicks.misplacement(c);
                assertTrue(off.containsKey("0.0") && off.containsKey("1.0"), "0 and 1 labelled: " + off);
                off.forEach((label, px) -> assertTrue(Math.abs(px) < 1.0,
                        "n=" + n + ": tick '" + label + "' is " + px + " px from its height; all: " + off));
            }
        }
    }

    @Test
    void fig8bDrawsThePapersReferenceLabelledAsThePapers() {
        XYChart c = Plots.cdfChart("t", "speedup", java.util.Map.of("ours", setups(500)), PaperFigures.fig8bReferences());
        assertTrue(c.getSeriesMap().containsKey("paper (500 setups): min 0.94x, 2 below 1x, max 2.92x"),
                c.getSeriesMap().keySet().toString());
        assertTrue(c.getSeriesMap().containsKey("paper mean 1.88x"), c.getSeriesMap().keySet().toString());
        var paper = c.getSeriesMap().get("paper (500 setups): min 0.94x, 2 below 1x, max 2.92x");
        assertEquals(2.0 / 500, paper.getYData()[1], 0.0, "2 of 500 setups below 1x");
        assertEquals(1.0, paper.getXData()[1], 0.0);
    }
}
