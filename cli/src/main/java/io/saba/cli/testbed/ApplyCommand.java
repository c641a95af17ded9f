package io.saba.cli.testbed;

import io.saba.controller.fabric.linux.PlainLink;
import io.saba.process.ProcessRunner;
import io.saba.testbed.TestbedSpec;
import io.saba.testbed.TestbedWeights;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code saba testbed apply}: weights on a testbed port by hand, through the Linux backend, for experiments
 * without a controller. The configuration stays after the command exits; {@code --reset} puts the plain link back.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Install Saba queues on a testbed port by hand, e.g. "
                + "`saba testbed apply --port sw:1 --weights 1=0.6,2=0.3,3=0.1` (level=weight, one queue each); "
                + "`--reset` restores the plain link.")
public final class ApplyCommand implements Callable<Integer> {
    @Option(names = "--name", defaultValue = TestbedCommand.DEFAULT_NAME)
    String name;
    @Option(names = "--port", defaultValue = "sw:1", split = ",",
            description = "sw:N (switch egress toward hN) or hN:0 (host egress); several, comma-separated, are set in "
                    + "one push")
    List<String> ports;
    @Option(names = "--weights", description = "level=weight,... (fractions of the link)")
    String weights;
    @Option(names = "--reset", description = "remove Saba's classes and filters from the port")
    boolean reset;

    @Override
    public Integer call() throws Exception {
        return TestbedCommand.report(() -> {
            TestbedSpec spec = TestbedSpec.load(name);
            ProcessRunner shell = new ProcessRunner();
            TestbedWeights set = new TestbedWeights(shell, TestbedWeights.ports(spec, ports), 1.0);
            if (reset) {
                set.reset();
                set.devices().forEach((id, port) -> System.out.println(id + ": plain link at " + port.linkRateBps()
                        + " bit/s"));
                return 0;
            }
            if (weights == null) {
                throw new IllegalArgumentException("give --weights level=weight,... or --reset");
            }
            Map<Integer, Double> weightOfLevel = new LinkedHashMap<>();
            for (String pair : weights.split(",")) {
                String[] kv = pair.trim().split("=");
                try {
                    if (kv.length != 2) {
                        throw new NumberFormatException();
                    }
                    weightOfLevel.put(Integer.parseInt(kv[0].trim()), Double.parseDouble(kv[1].trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--weights: '" + pair.trim() + "' is not level=weight");
                }
            }
            set.apply(weightOfLevel).forEach((id, plan) -> {
                System.out.println(id + ": " + plan);
                System.out.print(PlainLink.describe(shell, set.devices().get(id)) + "\n");
            });
            return 0;
        });
    }
}
