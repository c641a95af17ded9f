package io.saba.bench.proof;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.process.ProcessRunner;
import io.saba.controller.fabric.linux.RootAssumptions;
import io.saba.testbed.Testbed;
import io.saba.testbed.TestbedSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import io.saba.core.table.SensitivityTableCodec;
import org.junit.jupiter.api.Test;

/**
 * The proof with real traffic (issue 4): Saba's weights are the shares applications get at a switch port,
 * spare bandwidth is reused, a FIFO splits evenly, and every data packet carries its DSCP. Needs root, iperf3,
 * tcpdump, nftables; about 50 s.
 */
class TestbedProofTest {
    @Test
    void measuredSharesFollowTheWeights() throws Exception {
        RootAssumptions.assumeNetnsRoot("tc", "ethtool", "iperf3", "tcpdump", "nft", "ss");
        ProcessRunner sh = new ProcessRunner();
        Testbed testbed = new Testbed(sh);
        TestbedSpec spec = TestbedSpec.of("jt-proof", 4, 100_000_000L);
        testbed.down(spec.name());
        Path work = Files.createTempDirectory("saba-proof-test-");
        try {
            testbed.up(spec);
            // The repository's example table (LR, PageRank, Sort): weights ≈ 0.64 / 0.24 / 0.13.
            Path table = Path.of("..", "examples", "sensitivity-table.json");
            List<ProofApp> apps = Files.exists(table)
                    ? TestbedProof.appsFrom(SensitivityTableCodec.parse(Files.readString(table), table.toString()))
                    : TestbedProof.defaultApps();
            // 7 s phases, 2 s warm-up: a 5 s window of ten 0.5 s samples, so one stalled sender (seen on a loaded
            // 2-core machine) moves the median little.
            ProofReport report = new TestbedProof(spec, sh, work, 7, 2).run(apps);
            System.out.print(report.render());
            assertTrue(report.passed(), report.render());
        } finally {
            testbed.down(spec.name());
        }
    }
}
