package io.saba.controller.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;

/**
 * A self-signed certificate for 127.0.0.1 made with the JDK's keytool: {certificate PEM, PKCS#8 key PEM}. Test support
 * for every test of TLS on the controller's port (the client's and the agents').
 */
public final class SelfSigned {
    private SelfSigned() {
    }

    /** Writes {@code server.pem} and {@code server-key.pem} into {@code dir}. */
    public static Path[] in(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "saba", "-keyalg", "RSA", "-keysize",
                "2048", "-validity", "2", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit", "-keypass",
                "changeit").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), out);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        Path cert = dir.resolve("server.pem");
        Path key = dir.resolve("server-key.pem");
        Files.writeString(cert, pem("CERTIFICATE", ks.getCertificate("saba").getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", ks.getKey("saba", "changeit".toCharArray()).getEncoded()));
        return new Path[] {cert, key};
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
