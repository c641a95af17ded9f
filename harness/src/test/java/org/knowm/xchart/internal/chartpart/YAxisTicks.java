package org.knowm.xchart.internal.chartpart;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;

/**
 * Test access to the y-axis ticks XChart drew (its tick calculator is package-private, hence this package): how far
 * each labelled tick lies from the height of the value its label says, so a test can see a mislabelled axis.
 */
public final class YAxisTicks {
    private YAxisTicks() {
    }

    /** Label → pixels between where the tick is and where its labelled value is drawn, for ticks in [min, max]. */
    public static Map<String, Double> misplacement(Chart<?, ?> chart) {
        BitmapEncoder.getBufferedImage(chart); // ticks are computed while painting
        AxisTickCalculator_ t = (AxisTickCalculator_) chart.getYAxis().getAxisTickCalculator();
        double content = chart.getStyler() instanceof org.knowm.xchart.style.AxesChartStyler s
                ? s.getPlotContentSize() : 1.0;
        List<String> labels = t.getTickLabels();
        List<Double> at = t.getTickLocations();
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < labels.size(); i++) {
            double v = Double.parseDouble(labels.get(i));
            if (v < t.minValue || v > t.maxValue) {
                continue; // outside the plotted range: not drawn
            }
            // XChart's mapping of a value to a pixel: the content is centred in the working space
            double expected = t.workingSpace * (1 - content) / 2
                    + t.workingSpace * content * (v - t.minValue) / (t.maxValue - t.minValue);
            out.put(labels.get(i), at.get(i) - expected);
        }
        return out;
    }
}
