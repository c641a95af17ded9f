package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code saba workload run} hands the driver: the start gate only when asked, before the Spark settings. */
class WorkloadRunArgsTest {
    private static WorkloadCommand.Run parse(String... args) {
        WorkloadCommand.Run run = new WorkloadCommand.Run();
        new CommandLine(run).parseArgs(args);
        return run;
    }

    @Test
    void theStartGateReachesTheDriver() throws Exception {
        var args = parse("lr", "--master", "local[2]", "--wait-for-start", "--conf", "spark.app.name=x").args();
        assertEquals(1, args.stream().filter("--wait-for-start"::equals).count(), args.toString());
        assertEquals("spark.app.name=x", args.get(args.size() - 1), args.toString());
    }

    @Test
    void withoutTheFlagTheDriverDoesNotWait() throws Exception {
        assertFalse(parse("lr", "--master", "local[2]").args().contains("--wait-for-start"));
    }
}
