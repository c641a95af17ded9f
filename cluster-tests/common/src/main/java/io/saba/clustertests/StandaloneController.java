package io.saba.clustertests;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The standalone controller, started as the README starts it ({@code bin/saba controller --config FILE}) in a
 * process of its own, with the example sensitivity table and a one-switch topology whose first host is 127.0.0.1
 * (every endpoint of a cluster on this machine). What the tests know of it is what an operator sees:
 * {@code /status.json}.
 */
public final class StandaloneController {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String address;
    private final URI status;
    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private StandaloneController(String address, URI status, Process process) {
        this.address = address;
        this.status = status;
        this.process = process;
    }

    /**
     * Starts the controller among {@code daemons} (which stop it) and waits until its status page answers.
     *
     * @param dir where its configuration file goes
     */
    public static StandaloneController start(Daemons daemons, Path dir) throws IOException {
        Path checkout = Path.of(required("saba.checkout"));
        int grpc = Ports.free();
        int httpPort = Ports.free();
        Path config = Files.createDirectories(dir).resolve("controller.yaml");
        Files.writeString(config, String.join("\n",
                "listen: 127.0.0.1:" + grpc,
                "http: " + httpPort,
                "topology: {shape: single-switch:2, address-base: 127.0.0.1}",
                "table: " + checkout.resolve("examples/sensitivity-table.json"),
                ""));
        Process p = daemons.start("controller", List.of("bash", checkout.resolve("bin/saba").toString(),
                "controller", "--config", config.toString()), Map.of("SABA_JAVA_OPTS", "-Xmx256m"), dir);
        StandaloneController c = new StandaloneController("127.0.0.1:" + grpc,
                URI.create("http://127.0.0.1:" + httpPort + "/status.json"), p);
        await("the controller's status page (log: " + daemons.log("controller") + ")").atMost(Duration.ofMinutes(5))
                .until(() -> {
                    if (!p.isAlive()) {
                        throw new IllegalStateException("the controller exited with status " + p.exitValue()
                                + "; see " + daemons.log("controller"));
                    }
                    return c.tryStatus().isPresent();
                });
        return c;
    }

    /** {@code host:port} of its gRPC service, for {@code spark.saba.controller.address} / {@code saba.controller.address}. */
    public String address() {
        return address;
    }

    /** The applications {@code /status.json} shows now. */
    public List<JsonNode> applications() {
        JsonNode root = tryStatus().orElseThrow(() -> new IllegalStateException("the controller does not answer"));
        List<JsonNode> apps = new ArrayList<>();
        root.path("applications").forEach(apps::add);
        return apps;
    }

    /** The first application {@code /status.json} shows that matches, if any. */
    public Optional<JsonNode> application(Predicate<JsonNode> which) {
        return applications().stream().filter(which).findFirst();
    }

    /** Waits until an application matching {@code which} shows and returns it. */
    public JsonNode awaitApplication(String what, Predicate<JsonNode> which) {
        JsonNode[] found = new JsonNode[1];
        await(what + " on the controller's /status.json").atMost(Duration.ofMinutes(3)).until(() -> {
            found[0] = application(which).orElse(null);
            return found[0] != null;
        });
        return found[0];
    }

    public boolean alive() {
        return process.isAlive();
    }

    private Optional<JsonNode> tryStatus() {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(status).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(JSON.readTree(r.body())) : Optional.empty();
        } catch (IOException notUp) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted", e));
        }
    }

    /** A system property the build sets; a clear failure when the test runs outside Maven. */
    public static String required(String key) {
        String v = System.getProperty(key);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(key + " is not set (the module's failsafe configuration sets it; run "
                    + "through mvn verify)");
        }
        return v;
    }
}
