import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;

/**
 * Runs a shuffle with SabaShuffleManager (embedded controller) on a class path made of Spark's own dependencies
 * plus the shaded jar only: proves the shaded jar loads and talks gRPC next to Spark's protobuf, Guava and Jackson.
 * Compiled and run by shaded-smoke.sh; not part of the Maven build.
 */
public class ShadedSmoke {
    public static void main(String[] args) throws Exception {
        SparkConf c = new SparkConf().setMaster("local[2]").setAppName("Shaded Smoke").set("spark.ui.enabled", "false")
                .set("spark.shuffle.manager", "org.apache.spark.shuffle.saba.SabaShuffleManager");
        try (JavaSparkContext jsc = new JavaSparkContext(c)) {
            List<Integer> xs = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                xs.add(i);
            }
            long keys = jsc.parallelize(xs, 4).mapToPair(i -> new Tuple2<>(i % 10, i)).reduceByKey(Integer::sum)
                    .count();
            System.out.println("SMOKE keys=" + keys + " plugins=" + jsc.getConf().get("spark.plugins", ""));
        }
    }
}
