package io.saba.rperf.switchmodel;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with right-aligned columns, for the paper-versus-ours printouts. */
public final class TextTable {
    private final String title;
    private final List<String[]> rows = new ArrayList<>();

    public TextTable(String title, String... header) {
        this.title = title;
        rows.add(header);
    }

    public TextTable row(Object... cells) {
        String[] r = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            Object c = cells[i];
            r[i] = c instanceof Double d ? (Double.isNaN(d) ? "-" : String.format("%.2f", d)) : String.valueOf(c);
        }
        rows.add(r);
        return this;
    }

    @Override
    public String toString() {
        int cols = rows.get(0).length;
        int[] w = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder("## ").append(title).append('\n');
        for (int k = 0; k < rows.size(); k++) {
            String[] r = rows.get(k);
            for (int i = 0; i < r.length; i++) {
                sb.append(i == 0 ? "| " : " | ").append(" ".repeat(w[i] - r[i].length())).append(r[i]);
            }
            sb.append(" |\n");
            if (k == 0) {
                for (int i = 0; i < cols; i++) {
                    sb.append(i == 0 ? "|" : "|").append("-".repeat(w[i] + 2));
                }
                sb.append("|\n");
            }
        }
        return sb.toString();
    }
}
