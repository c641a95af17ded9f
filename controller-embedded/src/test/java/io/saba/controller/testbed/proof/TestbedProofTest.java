package io.saba.controller.testbed.proof;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.saba.controller.shell.ProcessRunner;
import io.saba.controller.testbed.RootAssumptions;
import io.saba.controller.testbed.Testbed;
import io.saba.controller.testbed.TestbedSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The proof with real traffic (issue 4): Saba's weights are the shares applications get at a switch port,
 * spare bandwidth is reused, a FIFO splits evenly, and every data packet carries its DSCP. Needs root, iperf3,
 * tcpdump, nftables; about 35 s.
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
            ProofReport report = new TestbedProof(spec, sh, work, 5, 2).run(TestbedProof.defaultApps());
            System.out.print(report.render());
            assertTrue(report.passed(), report.render());
        } finally {
            testbed.down(spec.name());
        }
    }
}
