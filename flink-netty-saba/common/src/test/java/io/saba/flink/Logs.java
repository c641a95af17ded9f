package io.saba.flink;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** What the code under test logs: slf4j-simple writes to {@code System.err}, looked up at every line. */
final class Logs {
    interface Body {
        void run() throws Exception;
    }

    private Logs() {
    }

    /** Runs {@code body} and returns what was logged meanwhile (still passing it on to the real stderr). */
    static String during(Body body) throws Exception {
        PrintStream real = System.err;
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public synchronized void write(int b) {
                copy.write(b);
                real.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                copy.write(b, off, len);
                real.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
        try {
            body.run();
        } finally {
            System.setErr(real);
        }
        synchronized (copy) {
            return copy.toString(StandardCharsets.UTF_8);
        }
    }
}
