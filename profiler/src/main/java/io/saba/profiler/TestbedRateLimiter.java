package io.saba.profiler;

import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.PlainLink;
import io.saba.process.CommandRunner;
import io.saba.testbed.TestbedSpec;
import java.util.Locale;

/**
 * The Linux backend on the namespace testbed: every host's egress (its eth0 HTB link class, which the testbed
 * installs) is set to the level's share of the link rate, so whatever the workload sends leaves each host at
 * most that fast. The switch's ports keep the full rate; with every sender limited they never queue.
 */
public final class TestbedRateLimiter implements RateLimiter {
    private final TestbedSpec spec;
    private final CommandRunner shell;

    public TestbedRateLimiter(TestbedSpec spec, CommandRunner shell) {
        this.spec = spec;
        this.shell = shell;
    }

    @Override
    public void apply(double percent) {
        if (!(percent > 0 && percent <= 100)) {
            throw new IllegalArgumentException("bandwidth level " + percent + " % is outside (0, 100]");
        }
        long bps = Math.max(8_000, Math.round(spec.linkRateBps() * percent / 100));
        for (int i = 1; i <= spec.hosts(); i++) {
            PlainLink.install(shell, new LinuxPort(spec.hostNamespace(i), TestbedSpec.HOST_DEVICE, bps));
        }
    }

    /** The rate each host's egress carries now, as tc reports it (for checks). */
    public String hostClass(int host) {
        return shell.check("tc", "-n", spec.hostNamespace(host), "class", "show", "dev", TestbedSpec.HOST_DEVICE,
                "classid", "1:1").strip();
    }

    @Override
    public String fabric() {
        return String.format(Locale.ROOT, "netns testbed '%s': %d hosts on one Linux bridge, %s links (veth, HTB), "
                + "limit on every host's egress", spec.name(), spec.hosts(), rate(spec.linkRateBps()));
    }

    static String rate(long bps) {
        return bps % 1_000_000_000 == 0 ? bps / 1_000_000_000 + " Gbit/s"
                : bps % 1_000_000 == 0 ? bps / 1_000_000 + " Mbit/s" : bps + " bit/s";
    }
}
