package io.saba.harness.realspark;

import io.saba.controller.alloc.AllocationPipeline.Allocation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What a real-Spark testbed campaign ran with, read back from its folder's {@code campaign.fingerprint} (written by
 * {@link io.saba.harness.realspark.testbed.CampaignSettings#fingerprint}), for whoever re-examines its results.
 *
 * @param hosts       testbed hosts
 * @param linkRateBps every link's rate
 * @param allocation  the controller's allocation
 * @param cSaba       C_Saba
 * @param tableSha256 SHA-256 of the table's text
 */
public record CampaignFingerprint(int hosts, long linkRateBps, Allocation allocation, double cSaba,
                                  String tableSha256) {
    private static final String PREFIX = "real-spark testbed ";

    /** Reads {@code dir/campaign.fingerprint}; anything else than a real-Spark campaign's is refused in one line. */
    public static CampaignFingerprint read(Path dir) {
        Path f = dir.resolve("campaign.fingerprint");
        String text;
        try {
            text = Files.readString(f, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalArgumentException(dir + " is not a testbed campaign's folder (cannot read " + f + ")");
        }
        if (!text.startsWith(PREFIX)) {
            throw new IllegalArgumentException(f + " is not a real-Spark testbed campaign's (it reads '" + text + "')");
        }
        Map<String, String> kv = new HashMap<>();
        for (String token : text.substring(PREFIX.length()).split(" ")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                kv.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        try {
            return new CampaignFingerprint(Integer.parseInt(need(kv, "hosts", f)),
                    Long.parseLong(need(kv, "link-rate", f)),
                    Allocation.parse(need(kv, "allocation", f), f + ": allocation"),
                    Double.parseDouble(need(kv, "c-saba", f)), need(kv, "table-sha256", f));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(f + ": " + e.getMessage());
        }
    }

    private static String need(Map<String, String> kv, String key, Path f) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException(f + " has no " + key + "=");
        }
        return v;
    }
}
