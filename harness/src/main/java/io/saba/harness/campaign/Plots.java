package io.saba.harness.campaign;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG figures with XChart (headless). */
public final class Plots {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private Plots() {
    }

    /**
     * Grouped bars: one category per label, one series per map (e.g. "ours", "paper"); NaN values are drawn as 0
     * and mean "no value in that source".
     */
    public static void bars(Path png, String title, String yLabel, List<String> labels,
                            Map<String, List<Double>> series) {
        CategoryChart c = new CategoryChartBuilder().width(900).height(500).title(title).xAxisTitle("")
                .yAxisTitle(yLabel).build();
        c.getStyler().setXAxisLabelRotation(45);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<Double> ys = new ArrayList<>();
            for (Double d : e.getValue()) {
                ys.add(d == null || d.isNaN() ? 0.0 : d);
            }
            c.addSeries(e.getKey(), labels, ys);
        }
        save(c, png);
    }

    /** Empirical CDF of the values (sorted ascending). */
    public static void cdf(Path png, String title, String xLabel, List<Double> sorted) {
        XYChart c = new XYChartBuilder().width(700).height(500).title(title).xAxisTitle(xLabel).yAxisTitle("CDF")
                .build();
        c.getStyler().setYAxisMin(0.0).setYAxisMax(1.0).setYAxisDecimalPattern("0.0").setYAxisTickMarkSpacingHint(60);
        List<Double> ys = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            ys.add((i + 1.0) / sorted.size());
        }
        XYSeries s = c.addSeries("ours", sorted, ys);
        s.setMarker(SeriesMarkers.NONE);
        save(c, png);
    }

    private static void save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path png) {
        try {
            BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
