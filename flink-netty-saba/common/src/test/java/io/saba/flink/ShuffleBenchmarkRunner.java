package io.saba.flink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Lets Maven run {@link ShuffleBenchmark} with the module's test classpath; skipped unless -Dsaba.bench=true. */
@EnabledIfSystemProperty(named = "saba.bench", matches = "true")
class ShuffleBenchmarkRunner {
    @Test
    void run() throws Exception {
        ShuffleBenchmark.main(new String[0]);
    }
}
