package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.bench.ib.IbEnforcementBench;
import io.saba.controller.topology.infiniband.IbSim;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code saba bench ib-enforcement}: bad input is one line and exit 2; a tiny run on ibsim (a fat tree of one spine,
 * two leaves, two hosts each) times every port update of every event and finds, with smpquery after each event,
 * the tables planned from the controller's allocation. No timing is asserted: the figures are the benchmark's.
 */
class BenchIbEnforcementTest {
    @Test
    void badInputIsOneLineAndExitTwo() {
        for (List<String> args : List.of(List.of("--events", "0"), List.of("--fat-tree", "2,x"),
                List.of("--fat-tree", "0,2,2"), List.of("--net", "no-such.net"), List.of("--table", "no-such.json"))) {
            var cl = SabaCli.newCommandLine();
            StringWriter err = new StringWriter();
            cl.setErr(new PrintWriter(err, true));
            int exit = cl.execute(Stream.concat(Stream.of("bench", "ib-enforcement"), args.stream())
                    .toArray(String[]::new));
            assertEquals(2, exit, args + ": " + err);
            assertEquals(1, err.toString().strip().lines().count(), args + ": " + err);
            assertTrue(err.toString().contains(args.get(0)), args + " names the option: " + err);
        }
    }

    @Test
    void everyEventIsTimedOnEveryPortAndTheReadBackIsThePlan() throws Exception {
        IbSim.missing().ifPresent(why -> Assumptions.abort("skipped: " + why));
        Path table = Path.of("..", "examples", "sensitivity-table.json").toAbsolutePath().normalize();
        IbEnforcementBench.Settings s = new IbEnforcementBench.Settings(null, 1, 2, 2, 4, 1, table,
                TestbedCampaignOptions.controllerCommand());
        IbEnforcementBench.Result r = IbEnforcementBench.run(s, System.out);
        IbEnforcementBench.print(r, System.out);
        // the ring h01 → h02 → h03 → h04 → h01 crosses two host ports and one uplink per leaf, two spine ports
        assertEquals(8, r.ports());
        assertEquals(4, r.events());
        assertEquals(4, r.perEvent().getTotalCount(), "a latency for every event");
        assertEquals(4L * r.ports(), r.perPort().getTotalCount(), "a latency for every port of every event");
        assertEquals(4 * r.ports(), r.checkedPorts(), "smpquery showed the plan on every port after every event");
    }
}
