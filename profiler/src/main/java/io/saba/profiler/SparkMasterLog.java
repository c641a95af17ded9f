package io.saba.profiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Spark standalone master's log says about where it launched each application's executors: the witness that
 * a testbed run's shuffle crossed the links it was meant to (standalone picks executor hosts itself, and can give an
 * application every core of one worker).
 */
public final class SparkMasterLog {
    private static final Pattern REGISTERED = Pattern.compile("Registered app (\\S+) with ID (\\S+)");
    private static final Pattern WORKER = Pattern.compile("Registering worker (\\S+):\\d+ with");
    private static final Pattern LAUNCHING =
            Pattern.compile("Launching executor (app-[^/\\s]+)/\\d+ on worker worker-\\d+-(\\S+)-\\d+");

    private SparkMasterLog() {
    }

    /**
     * Application name → the addresses of the workers its executors were launched on, in launch order. An
     * application launched twice under one name keeps the last.
     */
    public static Map<String, List<String>> executorHosts(String masterLog) {
        Map<String, String> nameOfId = new LinkedHashMap<>();
        Map<String, List<String>> hostsOfId = new LinkedHashMap<>();
        for (String line : masterLog.split("\n")) {
            Matcher r = REGISTERED.matcher(line);
            if (r.find()) {
                nameOfId.put(r.group(2), r.group(1));
                continue;
            }
            Matcher l = LAUNCHING.matcher(line);
            if (l.find()) {
                hostsOfId.computeIfAbsent(l.group(1), k -> new ArrayList<>()).add(l.group(2));
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        nameOfId.forEach((id, name) -> out.put(name, hostsOfId.getOrDefault(id, List.of())));
        return out;
    }

    /**
     * Why the last run of {@code app} cannot have sent its shuffle over a link: two or more executors, all launched
     * on one worker while the master knew others; null when they were spread (or it had one, or the log does not
     * know it). Seen on a fresh cluster: a worker that registered late gets nothing of the first application.
     */
    public static String allOnOneWorker(String masterLog, String app) {
        List<String> hosts = executorHosts(masterLog).get(app);
        Matcher w = WORKER.matcher(masterLog);
        java.util.Set<String> workers = new java.util.HashSet<>();
        while (w.find()) {
            workers.add(w.group(1));
        }
        if (hosts == null || hosts.size() < 2 || workers.size() < 2 || hosts.stream().distinct().count() > 1) {
            return null;
        }
        return "its " + hosts.size() + " executors all ran on " + hosts.get(0) + " of " + workers.size()
                + " workers, so its shuffle never crossed a link";
    }
}
