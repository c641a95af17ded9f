package io.saba.profiler;

import io.saba.core.model.FittedModel;
import io.saba.core.model.ModelSelection;
import io.saba.core.model.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A workload's samples and every candidate model's curve, the chosen one marked, as a PNG (XChart, headless); the
 * paper's points beside them where the paper gives some ({@link PaperCurves}).
 */
public final class CurvePlot {
    static {
        System.setProperty("java.awt.headless", "true");
    }

    private CurvePlot() {
    }

    public static void write(Path png, String workload, List<Sample> samples, ModelSelection selection)
            throws IOException {
        XYChart c = new XYChartBuilder().width(700).height(480).title("Sensitivity of " + workload)
                .xAxisTitle("bandwidth (% of the link)").yAxisTitle("slowdown").build();
        c.getStyler().setXAxisMin(0.0).setXAxisMax(100.0).setYAxisMin(0.0);
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (Sample s : samples) {
            xs.add(s.bandwidthPercent());
            ys.add(s.slowdown());
        }
        XYSeries points = c.addSeries("samples", xs, ys);
        points.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        points.setMarker(SeriesMarkers.CIRCLE);
        Map<Double, Double> paper = new TreeMap<>(PaperCurves.of(workload));
        if (!paper.isEmpty()) {
            XYSeries p = c.addSeries("paper (Saba §2; \"about 1\" drawn as 1)", new ArrayList<>(paper.keySet()),
                    new ArrayList<>(paper.values()));
            p.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            p.setMarker(SeriesMarkers.DIAMOND);
            p.setMarkerColor(java.awt.Color.BLACK); // apart from the curves' palette, which it sits on
        }
        double lowest = samples.stream().mapToDouble(Sample::bandwidthPercent).min().orElse(5);
        for (int i = 0; i < selection.candidates().size(); i++) {
            FittedModel f = selection.candidates().get(i);
            List<Double> bx = new ArrayList<>();
            List<Double> by = new ArrayList<>();
            for (double b = lowest; b <= 100.0001; b += 0.5) {
                bx.add(b);
                by.add(f.model().slowdown(b / 100));
            }
            XYSeries s = c.addSeries(String.format(Locale.ROOT, "%s (R² %.3f, CV %s)%s", f.label(), f.r2(),
                    Double.isNaN(f.cvRmse()) ? "-" : String.format(Locale.ROOT, "%.3f", f.cvRmse()),
                    i == selection.chosenIndex() ? " chosen" : ""), bx, by);
            s.setMarker(SeriesMarkers.NONE);
            if (i == selection.chosenIndex()) {
                s.setLineWidth(4f);
            }
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(c, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
