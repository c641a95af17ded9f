package io.saba.controller.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * A real headless Chromium (Debian's {@code chromium}) driven over the DevTools protocol: the JDK's WebSocket client
 * and Jackson, no browser-automation library. One tab; pages are loaded, their scripts run, and the test reads
 * the DOM the scripts left by evaluating JavaScript in the page.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> NAMES = List.of("chromium", "chromium-browser", "google-chrome");

    private final Process process;
    private final WebSocket socket;
    private final Map<Long, CompletableFuture<JsonNode>> answers = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final String session;

    /** The browser's path, or empty when none is installed (the tests then skip, saying so). */
    static Optional<Path> find() {
        return io.saba.process.Host.which(NAMES.toArray(String[]::new));
    }

    /**
     * Starts the browser with a fresh profile in {@code profile} and a window of the given size, and opens one tab.
     * {@code --no-sandbox}: tests run as root here, where Chromium's sandbox refuses to start.
     */
    static HeadlessChromium start(Path browser, Path profile, int width, int height) throws Exception {
        Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                "--remote-debugging-port=0", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
                "about:blank").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            return new HeadlessChromium(p, devToolsUrl(p));
        } catch (Exception | AssertionError e) {
            stop(p);
            throw e;
        }
    }

    /** Chromium says where its DevTools listen on stderr: "DevTools listening on ws://127.0.0.1:PORT/…". */
    private static String devToolsUrl(Process p) throws Exception {
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            List<String> seen = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    int at = line.indexOf("DevTools listening on ");
                    if (at >= 0) {
                        url.complete(line.substring(at + "DevTools listening on ".length()).trim());
                    } else if (!url.isDone() && seen.size() < 50) {
                        seen.add(line);
                    }
                }
            } catch (IOException e) {
                // the browser ended
            }
            url.completeExceptionally(new AssertionError("chromium ended without DevTools: " + seen));
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        return url.get(60, TimeUnit.SECONDS);
    }

    private HeadlessChromium(Process process, String browserUrl) throws Exception {
        this.process = process;
        this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                .buildAsync(URI.create(browserUrl), new Listener()).get(30, TimeUnit.SECONDS);
        String target = call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId").asText();
        this.session = call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true))
                .get("sessionId").asText();
        call("Page.enable", Map.of());
        call("Runtime.enable", Map.of());
    }

    /** Loads a page and waits until its document has loaded (its inline scripts have run by then). */
    void open(String url) throws Exception {
        call("Page.navigate", Map.of("url", url));
        waitFor("document.readyState === 'complete' && location.href === " + JSON.writeValueAsString(url),
                Duration.ofSeconds(60));
    }

    /** Evaluates an expression in the page (promises awaited) and returns its value as JSON. */
    JsonNode eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new AssertionError("page threw on " + expression + ": " + r.get("exceptionDetails"));
        }
        JsonNode value = r.path("result").get("value");
        return value == null ? JSON.nullNode() : value;
    }

    /** Waits until the expression is true in the page; fails after {@code bound} with what it was. */
    void waitFor(String expression, Duration bound) throws Exception {
        waitUntil(expression, JsonNode::asBoolean, bound);
    }

    /** Waits until the expression's value satisfies {@code ok}, and returns it. */
    JsonNode waitUntil(String expression, Predicate<JsonNode> ok, Duration bound) throws Exception {
        long end = System.nanoTime() + bound.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < end) {
            try {
                last = eval(expression);
                if (ok.test(last)) {
                    return last;
                }
            } catch (AssertionError navigating) {
                last = JSON.getNodeFactory().textNode(navigating.getMessage());
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never true in the page: " + expression + " (last: " + last + ")");
    }

    /** Types into a field as a person would, one input event per character (what the page's script listens to). */
    void type(String selector, String text) throws Exception {
        eval("(() => { const f = document.querySelector(" + JSON.writeValueAsString(selector) + "); f.focus();"
                + " f.value = ''; f.dispatchEvent(new Event('input', {bubbles: true})); })()");
        for (char c : text.toCharArray()) {
            call("Input.insertText", Map.of("text", String.valueOf(c)));
        }
    }

    /** A PNG of the whole page (beyond the window's height). */
    byte[] screenshot() throws Exception {
        JsonNode r = call("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
        return Base64.getDecoder().decode(r.get("data").asText());
    }

    private JsonNode call(String method, Map<String, Object> params) throws Exception {
        return call(session, method, params);
    }

    private JsonNode call(String sessionId, String method, Map<String, Object> params) throws Exception {
        long id = ids.incrementAndGet();
        ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
        msg.set("params", JSON.valueToTree(params));
        if (sessionId != null) {
            msg.put("sessionId", sessionId);
        }
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        answers.put(id, answer);
        synchronized (socket) {
            socket.sendText(JSON.writeValueAsString(msg), true).get(30, TimeUnit.SECONDS);
        }
        JsonNode r = answer.get(60, TimeUnit.SECONDS);
        if (r.has("error")) {
            throw new AssertionError(method + " failed: " + r.get("error"));
        }
        return r.get("result");
    }

    /** Collects each message's fragments and hands answers to their callers (events are not needed here). */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder message = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            message.append(data);
            if (last) {
                try {
                    JsonNode m = JSON.readTree(message.toString());
                    CompletableFuture<JsonNode> answer = m.has("id") ? answers.remove(m.get("id").asLong()) : null;
                    if (answer != null) {
                        answer.complete(m);
                    }
                } catch (IOException e) {
                    answers.values().forEach(a -> a.completeExceptionally(e));
                }
                message.setLength(0);
            }
            ws.request(1);
            return null;
        }
    }

    @Override
    public void close() {
        try {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the browser is stopped below either way
        }
        stop(process);
    }

    /** Stops the browser this helper started and the processes it started (renderers, GPU, zygote). */
    private static void stop(Process p) {
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                children.forEach(ProcessHandle::destroyForcibly);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
