package io.saba.cli.testbed;

import io.saba.client.DscpMap;
import io.saba.controller.fabric.ApplyResult;
import io.saba.controller.fabric.linux.LinuxPort;
import io.saba.controller.fabric.linux.LinuxPortResolver;
import io.saba.controller.fabric.linux.LinuxTcBackend;
import io.saba.controller.fabric.linux.PlainLink;
import io.saba.controller.shell.ProcessRunner;
import io.saba.controller.testbed.Testbed;
import io.saba.controller.testbed.TestbedSpec;
import io.saba.core.alloc.PortAllocation;
import io.saba.core.alloc.PortId;
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
            Map<PortId, LinuxPort> devices = new LinkedHashMap<>();
            for (String port : ports) {
                int colon = port.lastIndexOf(':');
                if (colon < 0) {
                    throw new IllegalArgumentException("--port '" + port + "' is not node:port");
                }
                PortId id = new PortId(port.substring(0, colon), Integer.parseInt(port.substring(colon + 1)));
                devices.put(id, Testbed.ports(spec).resolve(id).orElseThrow(
                        () -> new IllegalArgumentException("testbed " + name + " has no port " + id)));
            }
            ProcessRunner shell = new ProcessRunner();
            if (reset) {
                for (Map.Entry<PortId, LinuxPort> e : devices.entrySet()) {
                    PlainLink.install(shell, e.getValue());
                    System.out.println(e.getKey() + ": plain link at " + e.getValue().linkRateBps() + " bit/s");
                }
                return 0;
            }
            if (weights == null) {
                throw new IllegalArgumentException("give --weights level=weight,... or --reset");
            }
            Map<Integer, Integer> queueOfLevel = new LinkedHashMap<>();
            Map<String, Double> appWeights = new LinkedHashMap<>();
            List<String> pairs = List.of(weights.split(","));
            double[] w = new double[pairs.size()];
            for (int q = 0; q < pairs.size(); q++) {
                String[] kv = pairs.get(q).trim().split("=");
                if (kv.length != 2) {
                    throw new IllegalArgumentException("--weights: '" + pairs.get(q).trim() + "' is not level=weight");
                }
                queueOfLevel.put(Integer.parseInt(kv[0].trim()), q);
                w[q] = Double.parseDouble(kv[1].trim());
                appWeights.put("level" + kv[0].trim(), w[q]);
            }
            // Not closed on purpose: the point is to leave the configuration in place.
            LinuxTcBackend backend = new LinuxTcBackend(LinuxPortResolver.of(devices), DscpMap.classSelectors(), 1.0,
                    shell);
            List<PortAllocation> allocations = new java.util.ArrayList<>();
            devices.keySet().forEach(id -> allocations.add(new PortAllocation(id, queueOfLevel, w, appWeights)));
            ApplyResult r = backend.apply(allocations);
            if (!r.ok()) {
                throw new IllegalStateException(r.failed().toString());
            }
            for (Map.Entry<PortId, LinuxPort> e : devices.entrySet()) {
                System.out.println(e.getKey() + ": " + backend.installedPlan(e.getKey()).orElseThrow());
                System.out.print(PlainLink.describe(shell, e.getValue()) + "\n");
            }
            return 0;
        });
    }
}
