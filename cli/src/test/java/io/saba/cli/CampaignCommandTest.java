package io.saba.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignCommandTest extends InProcessCli {
    @TempDir
    Path dir;

    @Test
    void fig8PrintsThePaperBesideOursAndWritesItsFiles() {
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--out", dir.toString()));
        assertTrue(out.toString().contains("Fig. 8a") && out.toString().contains("1.88"), out.toString());
        assertTrue(out.toString().contains("speedup of Saba over per-flow max-min"), out.toString());
        for (String f : new String[] {"jobs.csv", "fig8a.png", "fig8b.png", "summary.txt"}) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
    }

    @Test
    void fig8NamesTheFairBaselineWhenItRunsInsteadOfSaba() {
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--allocation", "fair", "--out",
                dir.toString()), err.toString());
        assertTrue(out.toString().contains("speedup of per-application fair shares on Saba's levels over per-flow "
                + "max-min") && !out.toString().contains("speedup of Saba"), out.toString());
    }

    /** The mechanism options reach Fig. 8 (before, only --hol-blocking did): both runs of the setup wait. */
    @Test
    void fig8SimulatesTheMechanismsItIsGiven() throws Exception {
        Path without = dir.resolve("without");
        Path with = dir.resolve("with");
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--threads", "1", "--out", without.toString()),
                err.toString());
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--threads", "1", "--queueing-delay",
                "testbed", "--out", with.toString()), err.toString());
        assertTrue(Files.readString(with.resolve("summary.txt")).contains("simulated with each host computing on "
                + "cores of its own, testbed queueing delay"), Files.readString(with.resolve("summary.txt")));
        assertTrue(Files.readString(with.resolve("campaign.fingerprint")).contains(" queueing-delay=testbed"));
        // the same jobs, other completion times: the rounds waited in both runs
        List<String> a = Files.readAllLines(without.resolve("jobs.csv"));
        List<String> b = Files.readAllLines(with.resolve("jobs.csv"));
        assertEquals(a.size(), b.size());
        assertTrue(!a.equals(b), "the queueing delay changed nothing:\n" + a);
    }

    @Test
    void fig10PacketComparesTheVlModesAndSabasWeightsOnASmallLeafSpine() throws Exception {
        assertEquals(0, run("campaign", "--figure", "fig10-packet", "--leaves", "2", "--hosts-per-leaf", "4",
                "--instances", "4", "--seeds", "1", "--time-scale", "3e-6", "--threads", "1", "--degree", "3",
                "--out", dir.toString()), err.toString());
        String text = out.toString();
        for (String scheme : new String[] {"packet vl-per-app", "packet saba ", "packet saba-eq2", "packet saba-equal",
            "fluid saba", "CPU"}) {
            assertTrue(text.contains(scheme), scheme + " missing from:\n" + text);
        }
        for (String f : new String[] {"fig10-packet.csv", "summary.txt"}) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
        assertTrue(Files.readString(dir.resolve("campaign.fingerprint")).contains("Saba's models poly k=3"),
                "--degree reaches the packet profiler as it does fig8-packet's");
    }

    @Test
    void fig8PacketRunsTheSchemesItIsGivenOnTheSwitchAndWritesItsFiles() throws Exception {
        assertEquals(0, run("campaign", "--figure", "fig8-packet", "--setups", "1", "--time-scale", "1e-6",
                "--schemes", "shared,control", "--out", dir.toString()), err.toString());
        String text = out.toString();
        assertTrue(text.contains("Fig. 8a") && text.contains("1.88") && text.contains("control: 8 VLs, equal over "
                + "shared VL ") && text.contains("1 complete setups, 16 jobs"), text);
        assertTrue(!text.contains("Saba (corun)"), "only the schemes asked for run: " + text);
        for (String f : new String[] {"jobs.csv", "fig8a.csv", "fig8b.csv", "fig8a.png", "fig8b.png", "summary.txt",
            "sensitivity-table.json"}) {
            assertTrue(Files.exists(dir.resolve(f)), f);
        }
        assertEquals(1 + 2 * 16, Files.readAllLines(dir.resolve("jobs.csv")).size());
    }

    @Test
    void fig8PacketRefusesAnUnknownSchemeAndSchemesElsewhere() {
        assertEquals(2, run("campaign", "--figure", "fig8-packet", "--schemes", "shared,fast", "--out",
                dir.toString()));
        assertTrue(err.toString().contains("unknown fig8-packet scheme 'fast'"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--schemes", "saba", "--out", dir.toString()));
        assertTrue(err.toString().contains("--schemes: not with --figure fig10-packet"), err.toString());
    }

    @Test
    void packetFiguresTakeAckCoalescingAndKeepFoldersOfEachApart() throws Exception {
        assertEquals(2, run("campaign", "--figure", "fig8-packet", "--ack-every", "0", "--out", dir.toString()));
        assertTrue(err.toString().contains("--ack-every must be 1 or more, got 0"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--ack-every", "-3", "--out", dir.toString()));
        assertTrue(err.toString().contains("--ack-every must be 1 or more, got -3"), err.toString());
        Path fig10 = dir.resolve("fig10");
        String[] tiny = {"campaign", "--figure", "fig10-packet", "--leaves", "2", "--hosts-per-leaf", "4",
            "--instances", "4", "--seeds", "1", "--time-scale", "3e-6", "--threads", "1", "--no-fluid", "--out",
            fig10.toString()};
        assertEquals(0, run(tiny), err.toString());
        assertTrue(Files.readString(fig10.resolve("campaign.fingerprint")).contains("an ACK asked every 256 packets"),
                "fig10-packet coalesces ACKs as fig8-packet does by default");
        String[] perPacketTiny = java.util.Arrays.copyOf(tiny, tiny.length + 2);
        perPacketTiny[tiny.length] = "--ack-every";
        perPacketTiny[tiny.length + 1] = "1";
        assertEquals(2, run(perPacketTiny), "a folder made with coalesced ACKs refuses a run with an ACK per packet");
        Path perPacket = dir.resolve("per-packet");
        assertEquals(0, run("campaign", "--figure", "fig8-packet", "--ack-every", "1", "--setups", "1",
                "--time-scale", "1e-6", "--schemes", "shared", "--out", perPacket.toString()), err.toString());
        assertFalse(Files.readString(perPacket.resolve("campaign.fingerprint")).contains("ack-every"),
                "an ACK per packet keeps the fingerprint of the folders made before coalescing");
        assertEquals(2, run("campaign", "--figure", "fig8-packet", "--setups", "1", "--time-scale", "1e-6",
                "--schemes", "shared", "--out", perPacket.toString()));
        assertEquals(1 + 16, Files.readAllLines(perPacket.resolve("jobs.csv")).size(), "the folder's rows are kept");
    }

    @Test
    void fig8PacketTakesRecordedWorkloadsWithoutTheFluidSchemes() throws Exception {
        assertEquals(2, run("campaign", "--figure", "fig8-packet", "--workloads", "measured", "--out",
                dir.resolve("a").toString()));
        assertTrue(err.toString().contains("--workloads must be hibench or recorded, got 'measured'"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig8-packet", "--workloads", "recorded", "--schemes",
                "shared,fluid-max-min", "--out", dir.resolve("b").toString()));
        assertTrue(err.toString().contains("the fluid schemes model all-to-all rounds only"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--workloads", "recorded", "--out",
                dir.resolve("c").toString()));
        assertTrue(err.toString().contains("--workloads: not with --figure fig10-packet"), err.toString());
        assertEquals(0, run("campaign", "--figure", "fig8-packet", "--workloads", "recorded", "--setups", "1",
                "--time-scale", "1e-6", "--schemes", "shared,control", "--out", dir.resolve("d").toString()),
                err.toString());
        assertTrue(Files.readString(dir.resolve("d/campaign.fingerprint")).contains("workloads=recorded"));
        assertTrue(out.toString().contains("workloads recorded") || err.toString().contains("workloads recorded"),
                err.toString());
    }

    @Test
    void packetOptionsOutsideFig10PacketAreRefusedByName() {
        assertEquals(2, run("campaign", "--figure", "fig10", "--per-host", "2", "--out", dir.toString()));
        assertTrue(err.toString().contains("--per-host: not with --figure fig10 "), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--arbitration", "lifo", "--out",
                dir.resolve("x").toString()));
        assertTrue(err.toString().contains("--arbitration must be rr or fcfs"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--oversubscription", "4", "--out",
                dir.resolve("y").toString()));
        assertTrue(err.toString().contains("oversubscription 4:1 must divide"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--separate-at", "nic,core", "--out",
                dir.resolve("z").toString()));
        assertTrue(err.toString().contains("--separate-at takes nic, leaf-up, spine-down, leaf-down, not core"),
                err.toString());
    }

    /** A bad option value or an unknown option is one line naming the input, exit status 2, without the usage. */
    @Test
    void aBadProgressStyleOrOptionIsOneLineAndExitTwo() {
        assertEquals(2, run("campaign", "--progress", "bogus", "--out", dir.toString()));
        assertEquals(List.of("saba: --progress must be auto, terminal, lines or off, got 'bogus'"),
                err.toString().strip().lines().toList());
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--setups", "many", "--out", dir.toString()));
        List<String> lines = err.toString().strip().lines().toList();
        assertEquals(1, lines.size(), err.toString());
        assertTrue(lines.get(0).startsWith("saba campaign: ") && lines.get(0).contains("'many'"), lines.get(0));
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--no-such-option"));
        assertEquals(List.of("saba campaign: unknown option '--no-such-option'; did you mean --no-fluid?"),
                err.toString().strip().lines().toList());
        assertTrue(out.toString().isEmpty(), "no usage: " + out);
    }

    @Test
    void anUnknownFigureIsTheUsersToFix() {
        assertEquals(2, run("campaign", "--figure", "fig99", "--out", dir.toString()));
        assertTrue(err.toString().contains("fig99"), err.toString());
    }

    @Test
    void fig8RunsItsSetupsOnASparkMaster() {
        assertEquals(0, run("campaign", "--setups", "1", "--seed", "3", "--master", "local[2]", "--out",
                dir.toString()), err.toString());
        assertTrue(out.toString().contains("on Spark local[2]"), out.toString());
        assertTrue(out.toString().contains("Fig. 8a"), out.toString());
    }

    @Test
    void sparkOptionsOutsideFig8AreRefusedByName() {
        assertEquals(2, run("campaign", "--figure", "fig9", "--master", "local[2]", "--out", dir.toString()));
        assertTrue(err.toString().contains("--master"), err.toString());
        assertEquals(2, run("campaign", "--conf", "spark.executor.memory=1g", "--out", dir.toString()));
        assertTrue(err.toString().contains("--conf needs --master"), err.toString());
    }

    @Test
    void badTestbedCampaignInputIsOneLineAndExit2BeforeAnythingStarts() throws Exception {
        Path out = dir.resolve("never");
        assertEquals(2, run("campaign", "--testbed", "--hosts", "2", "--out", out.toString()));
        assertTrue(err.toString().contains("--hosts must be 3..10") && err.toString().contains("got 2"),
                err.toString());
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"format\": ");
        assertEquals(2, run("campaign", "--testbed", "--table", broken.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains(broken + ": not valid JSON"), err.toString());
        Path unknown = Files.writeString(dir.resolve("unknown.json"), "{\"format\":\"saba-sensitivity-table\","
                + "\"version\":1,\"workloads\":{\"kmeans\":{\"degree\":1,\"coefficients\":[2,-1]}}}");
        assertEquals(2, run("campaign", "--testbed", "--table", unknown.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains("unknown workload 'kmeans'"), err.toString());
        assertEquals(2, run("campaign", "--testbed", "--allocation", "maxmin", "--out", out.toString()));
        assertTrue(err.toString().contains("--allocation must be corun, eq2 or fair, got 'maxmin'"), err.toString());
        assertEquals(2, run("campaign", "--testbed", "--sensitivity", "learned", "--out", out.toString()));
        assertTrue(err.toString().contains("--sensitivity must be table, online or blended, got 'learned'"),
                err.toString());
        assertEquals(2, run("campaign", "--testbed", "--controller-table", "no", "--out", out.toString()));
        assertTrue(err.toString().contains("--controller-table must be yes or none, got 'no'"), err.toString());
        assertEquals(2, run("campaign", "--testbed", "--figure", "fig9", "--out", out.toString()));
        assertTrue(err.toString().contains("--testbed does not take --figure"), err.toString());
        assertEquals(2, run("campaign", "--hosts", "4", "--out", out.toString()));
        assertTrue(err.toString().contains("--hosts: only with --testbed"), err.toString());
        assertEquals(8, err.toString().lines().count(), "one line each: " + err);
        assertTrue(!Files.exists(out), "nothing written");
    }

    /** A campaign folder as saba campaign --testbed leaves it, with the table it names. */
    private Path measuredCampaign(Path table) throws Exception {
        String json = Files.readString(table);
        Path m = Files.createDirectories(dir.resolve("measured"));
        Files.writeString(m.resolve("campaign.fingerprint"), "real-spark testbed seed=1 hosts=4 link-rate=20000000 "
                + "scale=small allocation=corun c-saba=0.9 partitions=4 executor-memory=768m workloads=long,short "
                + "table-sha256=" + io.saba.harness.realspark.testbed.RealSparkCampaign.sha256(json) + "\n");
        Files.writeString(m.resolve("jobs.csv"), String.join("\n", io.saba.harness.realspark.JobsCsv.HEADER,
                "0,s0-j0,long,1,2,h2;h3,25.0,25.5,0.98,", "0,s0-j1,short,1,2,h2;h3,10.0,6.0,1.67,") + "\n");
        return m;
    }

    private Path tableWithTraffic() throws Exception {
        var ctx = new io.saba.core.table.ProfilingContext(2, "small", null, "testbed", "measured");
        var t = io.saba.core.table.SensitivityTable.empty()
                .with(new io.saba.core.table.TableEntry("long", io.saba.core.model.SensitivityModel.of(3, -2), 1,
                        java.util.List.of(), ctx).withTraffic(io.saba.core.corun.TrafficRecord.constant(20, 1, 0.1)))
                .with(new io.saba.core.table.TableEntry("short", io.saba.core.model.SensitivityModel.of(2, -1), 1,
                        java.util.List.of(), ctx).withTraffic(io.saba.core.corun.TrafficRecord.constant(5, 1, 0.1)));
        Path f = dir.resolve("table.json");
        Files.writeString(f, io.saba.core.table.SensitivityTableCodec.toJson(t));
        return f;
    }

    @Test
    void testbedValidationSetsTheSimulatorBesideAMeasuredCampaign() throws Exception {
        Path table = tableWithTraffic();
        Path measured = measuredCampaign(table);
        Path out = dir.resolve("validation");
        assertEquals(0, run("campaign", "--figure", "testbed-validation", "--measured", measured.toString(),
                "--table", table.toString(), "--out", out.toString()), err.toString());
        assertTrue(this.out.toString().contains("setups in the same order: 1 of 1"), this.out.toString());
        for (String f : new String[] {"testbed-validation.csv", "testbed-validation.png", "summary.txt"}) {
            assertTrue(Files.exists(out.resolve(f)), f);
        }
        // the folder is named by what it validates, not where it was: a moved checkout writes it again
        Path moved = dir.resolve("moved");
        Files.move(measured, moved);
        assertEquals(0, run("campaign", "--figure", "testbed-validation", "--measured", moved.toString(),
                "--table", table.toString(), "--out", out.toString(), "--shared-cores", "2", "--queueing-delay",
                "testbed"), err.toString());
        assertTrue(Files.readString(out.resolve("summary.txt")).contains("one pool of 2 cores, testbed queueing "
                + "delay"), Files.readString(out.resolve("summary.txt")));
        assertEquals(0, run("campaign", "--figure", "testbed-validation", "--measured", moved.toString(),
                "--table", table.toString(), "--out", out.toString(), "--shared-cores", "2", "--saba-run-cores",
                "0.1"), err.toString());
        assertTrue(Files.readString(out.resolve("summary.txt")).contains("one pool of 2 cores, no queueing delay, "
                + "0.1 of the cores busy with Saba's own processes in its runs"),
                Files.readString(out.resolve("summary.txt")));
    }

    @Test
    void withTheFairTreatmentsFolderTheOrderOfBaselineFairAndSabaIsCompared() throws Exception {
        Path table = tableWithTraffic();
        Path measured = measuredCampaign(table);
        Path fair = Files.createDirectories(dir.resolve("fair"));
        Files.writeString(fair.resolve("campaign.fingerprint"), Files.readString(measured.resolve("campaign.fingerprint"))
                .replace("allocation=corun", "allocation=fair"));
        Files.writeString(fair.resolve("jobs.csv"), String.join("\n", io.saba.harness.realspark.JobsCsv.HEADER,
                "0,s0-j0,long,1,2,h2;h3,25.0,25.2,0.99,", "0,s0-j1,short,1,2,h2;h3,10.0,9.0,1.11,") + "\n");
        Path out = dir.resolve("validation");
        assertEquals(0, run("campaign", "--figure", "testbed-validation", "--measured", measured.toString(),
                "--measured-fair", fair.toString(), "--table", table.toString(), "--out", out.toString()),
                err.toString());
        assertTrue(this.out.toString().contains("saba > fair > baseline     saba > fair = baseline     no"),
                this.out.toString());
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--measured", measured.toString(),
                "--measured-fair", measured.toString(), "--table", table.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains("is not the fair treatment of"), err.toString());
        assertEquals(2, run("campaign", "--figure", "fig8", "--measured-fair", fair.toString()));
        assertTrue(err.toString().contains("--measured-fair applies to --figure testbed-validation only"),
                err.toString());
        assertEquals(2, err.toString().strip().lines().count(), "one line each, no stack trace: " + err);
    }

    @Test
    void aFolderOfAnotherCampaignIsRefusedInOneLine() throws Exception {
        Path out = dir.resolve("fig9-out");
        Files.createDirectories(out);
        Files.writeString(out.resolve("campaign.fingerprint"), "fig9\n");
        Path table = tableWithTraffic();
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--measured",
                measuredCampaign(table).toString(), "--table", table.toString(), "--out", out.toString()));
        assertTrue(err.toString().contains("holds another campaign (fig9)"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
        assertEquals(2, run("campaign", "--figure", "fig10", "--shared-cores", "2"));
        assertTrue(err.toString().contains("--shared-cores applies to --figure testbed-validation, fig8 and fig9 (a "
                + "testbed's hosts computing on one machine), not fig10"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--figure", "fig10-packet", "--queueing-delay", "testbed"));
        assertTrue(err.toString().contains("--queueing-delay applies to --figure testbed-validation, fig8, fig9, "
                + "fig10, fig11a and fig11b (the fluid simulations; the packet model queues packets itself), not "
                + "fig10-packet"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--hol-blocking"));
        assertTrue(err.toString().contains("--hol-blocking applies to --figure fig8, fig9, fig10, fig11a and fig11b "
                + "(the simulated lossless fabrics), not testbed-validation"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--saba-run-cores", "0.1"));
        assertTrue(err.toString().contains("--saba-run-cores needs --shared-cores"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--shared-cores", "2", "--saba-run-cores",
                "2"));
        assertTrue(err.toString().contains("fewer than the shared pool's (2), not 2.0"), err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
        err.getBuffer().setLength(0);
        assertEquals(2, run("campaign", "--figure", "fig10", "--queueing-delay", "fifo"));
        assertTrue(err.toString().contains("queueing delay 'fifo' is not one of: testbed, infiniband"),
                err.toString());
        assertEquals(1, err.toString().strip().lines().count(), "one line, no stack trace: " + err);
    }

    @Test
    void testbedValidationRefusesAnotherTableAndMissingInputInOneLine() throws Exception {
        Path table = tableWithTraffic();
        Path measured = measuredCampaign(table);
        Files.writeString(table, Files.readString(table).replace("\"long\"", "\"lr\""));
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--measured", measured.toString(),
                "--table", table.toString(), "--out", dir.resolve("v").toString()));
        assertTrue(err.toString().contains("is not the table"), err.toString());
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--out", dir.resolve("v").toString()));
        assertTrue(err.toString().contains("needs --measured"), err.toString());
        assertEquals(2, run("campaign", "--figure", "testbed-validation", "--measured", dir.toString(),
                "--out", dir.resolve("v").toString()));
        assertTrue(err.toString().contains("not a testbed campaign's folder"), err.toString());
        assertEquals(3, err.toString().strip().lines().count(), "one line each, no stack trace: " + err);
    }
}
