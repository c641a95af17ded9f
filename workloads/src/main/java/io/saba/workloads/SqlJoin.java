package io.saba.workloads;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * HiBench's SQL join: rankings(pageURL, pageRank, avgDuration) joined with the 1999 rows of
 * uservisits(sourceIP, destURL, visitDate, adRevenue, ...) on the URL, revenue and average rank per source IP,
 * the top IPs by revenue. Tables are generated with SQL hash expressions of the row id, so generation is
 * code-generated and deterministic (paper: 5G uservisits and 120M rankings records).
 */
final class SqlJoin implements Workload {
    private Dataset<Row> rankings;
    private Dataset<Row> visits;

    public String key() {
        return "sql";
    }

    public String reportType() {
        return "SabaSparkJoin";
    }

    public long prepare(SparkSession spark, Size s) {
        long pages = s.count(2_000, 100_000, 120_000_000);
        long nVisits = s.count(10_000, 1_000_000, 5_000_000_000L);
        rankings = spark.range(0, pages, 1, s.partitions()).selectExpr(
                "concat('url_', id) AS pageURL",
                "pmod(hash(id, 1), 10000) AS pageRank",
                "pmod(hash(id, 2), 100) AS avgDuration").persist(StorageLevel.MEMORY_AND_DISK());
        visits = spark.range(0, nVisits, 1, s.partitions()).selectExpr(
                "concat_ws('.', pmod(hash(id, 3), 256), pmod(hash(id, 4), 256), pmod(hash(id, 5), 256),"
                        + " pmod(hash(id, 6), 256)) AS sourceIP",
                // Zipf-like: low URL ids are visited far more often
                "concat('url_', cast(floor(pow(" + pages + " + 1.0, pmod(hash(id, 7), 1000000) / 1000000.0)) - 1"
                        + " AS BIGINT)) AS destURL",
                "date_add(DATE'1998-01-01', pmod(hash(id, 8), 1461)) AS visitDate",
                "CAST(pmod(hash(id, 9), 100000) AS DOUBLE) / 100 AS adRevenue",
                "concat('agent-', pmod(hash(id, 10), 50)) AS userAgent",
                "concat('c', pmod(hash(id, 11), 200)) AS countryCode",
                "concat('w', pmod(hash(id, 12), 10000)) AS searchWord",
                "pmod(hash(id, 13), 100) AS duration").persist(StorageLevel.MEMORY_AND_DISK());
        rankings.count();
        visits.count();
        rankings.createOrReplaceTempView("rankings");
        visits.createOrReplaceTempView("uservisits");
        // HiBench's row sizes: about 60 bytes a ranking, 150 a visit
        return pages * 60 + nVisits * 150;
    }

    public String run(SparkSession spark) {
        List<Row> top = spark.sql("SELECT sourceIP, avg(pageRank) AS avgRank, sum(adRevenue) AS totalRevenue"
                + " FROM rankings R JOIN (SELECT sourceIP, destURL, adRevenue FROM uservisits UV"
                + " WHERE datediff(UV.visitDate, '1999-01-01') >= 0 AND datediff(UV.visitDate, '2000-01-01') <= 0) NUV"
                + " ON (R.pageURL = NUV.destURL) GROUP BY sourceIP ORDER BY totalRevenue DESC, sourceIP")
                .limit(10).collectAsList();
        return "top=" + (top.isEmpty() ? "none" : top.get(0).getString(0) + String.format(":%.2f",
                top.get(0).getDouble(2)));
    }

    public void cleanup() {
        rankings.unpersist();
        visits.unpersist();
    }
}
