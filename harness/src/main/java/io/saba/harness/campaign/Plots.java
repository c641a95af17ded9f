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
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
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
        cdf(png, title, xLabel, sorted, List.of());
    }

    /**
     * What is known of another CDF, drawn beside ours: points (markers only, nothing invented between them) or a
     * vertical line at one value (xs and ys of two points).
     */
    public record Reference(String label, List<Double> xs, List<Double> ys, boolean line) {
        public static Reference points(String label, List<Double> xs, List<Double> ys) {
            return new Reference(label, xs, ys, false);
        }

        public static Reference vertical(String label, double x) {
            return new Reference(label, List.of(x, x), List.of(0.0, 1.0), true);
        }
    }

    /** Empirical CDF of ours as a step curve (it reaches 1 at the largest value), with references beside it. */
    public static void cdf(Path png, String title, String xLabel, List<Double> sorted, List<Reference> references) {
        save(cdfChart(title, xLabel, Map.of("ours", sorted), references), png);
    }

    /** As {@link #cdf(Path, String, String, List, List)}, one step curve per series (each sorted ascending). */
    public static void cdfs(Path png, String title, String xLabel, Map<String, List<Double>> series,
                            List<Reference> references) {
        save(cdfChart(title, xLabel, series, references), png);
    }

    /** The chart {@link #cdfs} saves. */
    static XYChart cdfChart(String title, String xLabel, Map<String, List<Double>> series,
                            List<Reference> references) {
        XYChart c = new XYChartBuilder().width(700).height(references.isEmpty() ? 500 : 560).title(title)
                .xAxisTitle(xLabel).yAxisTitle("CDF").build();
        // "0.0#": a tick between tenths (0.25) shows as itself, never rounded onto a neighbour's label
        c.getStyler().setYAxisMin(0.0).setYAxisMax(1.0).setYAxisDecimalPattern("0.0#").setYAxisTickMarkSpacingHint(60);
        if (!references.isEmpty() || series.size() > 1) {
            c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        }
        List<Double> first = null;
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<double[]> steps = Cdf.steps(e.getValue());
            if (!steps.isEmpty()) {
                c.addSeries(e.getKey(), steps.stream().map(p -> p[0]).toList(), steps.stream().map(p -> p[1])
                        .toList()).setMarker(SeriesMarkers.NONE);
                first = first == null ? e.getValue() : first;
            }
        }
        for (Reference r : references) {
            XYSeries s = c.addSeries(r.label(), r.xs(), r.ys());
            if (r.line()) {
                s.setMarker(SeriesMarkers.NONE);
            } else {
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            }
        }
        if (first != null) {
            roundTicks(c, first.get(0), first.size()); // last, so the visible series keep their colours
        }
        return c;
    }

    /**
     * XChart 3.8.8 puts the y ticks on the data's own values when those are equally spaced (AxisTickCalculator_,
     * areValuesEquallySpaced; knowm/XChart issue 731), and a CDF's are: k / n. For 500 setups that gave ticks every
     * 13 / 500 = 0.026, which the "0.0" pattern printed as tenths, so the line labelled 1.0 sat at 0.96 and the
     * curve's last step, at exactly 1, read as 1.04. One invisible point between the first two steps makes the
     * values unequally spaced, and XChart falls back to its round ticks (0, 0.1, …, 1 at their true heights).
     */
    private static void roundTicks(XYChart c, double x, int n) {
        XYSeries guard = c.addSeries("\u200b", List.of(x), List.of(0.5 / n));
        guard.setShowInLegend(false);
        guard.setMarker(SeriesMarkers.NONE);
        guard.setLineStyle(SeriesLines.NONE);
    }

    /**
     * Predicted against measured, one marker per point and one series per group, with the diagonal and a band of
     * ±{@code tolerance} around it: points inside the band are predicted within the tolerance.
     */
    public static void predictedVsMeasured(Path png, String title, String what, Map<String, double[][]> groups,
                                           double tolerance) {
        XYChart c = new XYChartBuilder().width(700).height(600).title(title).xAxisTitle("measured " + what)
                .yAxisTitle("simulated " + what).build();
        c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double[][] xy : groups.values()) {
            for (double[] p : xy) {
                lo = Math.min(lo, Math.min(p[0], p[1]));
                hi = Math.max(hi, Math.max(p[0], p[1]));
            }
        }
        if (lo > hi) {
            return;
        }
        List<Double> ends = List.of(lo, hi);
        c.addSeries("equal", ends, ends).setMarker(SeriesMarkers.NONE);
        c.addSeries("+" + Math.round(100 * tolerance) + " %", ends, List.of(lo * (1 + tolerance), hi * (1 + tolerance)))
                .setMarker(SeriesMarkers.NONE);
        c.addSeries("−" + Math.round(100 * tolerance) + " %", ends, List.of(lo * (1 - tolerance), hi * (1 - tolerance)))
                .setMarker(SeriesMarkers.NONE);
        for (Map.Entry<String, double[][]> e : groups.entrySet()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (double[] p : e.getValue()) {
                xs.add(p[0]);
                ys.add(p[1]);
            }
            c.addSeries(e.getKey(), xs, ys).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
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
