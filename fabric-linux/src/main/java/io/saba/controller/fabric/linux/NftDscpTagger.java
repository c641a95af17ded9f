package io.saba.controller.fabric.linux;

import io.saba.process.CommandResult;
import io.saba.process.CommandRunner;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Host-side tagging: nftables rules that set the DSCP of outgoing TCP packets by their <em>local</em> port, for
 * programs that cannot set IP_TOS on their sockets.
 *
 * <p>One table ({@code inet saba_tag}) per network namespace, holding one output chain at mangle priority;
 * {@link #tag} replaces the whole table in one {@code nft -f} transaction, so rules never exist half-installed.
 *
 * <p>Trade-offs (why the socket option stays the first choice): the host needs nftables and root; a port is not an
 * application, so every connection on a shared port (a shuffle service serving several applications) gets the same
 * DSCP; client-side connections use ephemeral ports unless the program pins them; the controller must learn the
 * ports; every packet pays a rule lookup. In exchange, unmodified programs are tagged and nothing in the
 * application changes.
 */
public final class NftDscpTagger implements AutoCloseable {
    /** The table's name; {@code inet} so that one rule set covers IPv4 and IPv6. */
    public static final String TABLE = "saba_tag";

    private static final Logger log = LoggerFactory.getLogger(NftDscpTagger.class);

    private final CommandRunner shell;
    private final Set<String> namespaces = new LinkedHashSet<>();

    public NftDscpTagger(CommandRunner shell) {
        this.shell = shell;
    }

    /**
     * Installs (or replaces) the tagging rules of one namespace.
     *
     * @param namespace  network namespace, or {@code null} for the current one
     * @param dscpOfPort local TCP port → DSCP (0..63)
     */
    public void tag(String namespace, Map<Integer, Integer> dscpOfPort) {
        StringBuilder rules = new StringBuilder();
        // "add" then "delete" makes the delete safe whether or not the table exists; all three are one transaction.
        rules.append("add table inet ").append(TABLE).append('\n');
        rules.append("delete table inet ").append(TABLE).append('\n');
        rules.append("table inet ").append(TABLE).append(" {\n");
        rules.append("  chain out {\n    type filter hook output priority mangle; policy accept;\n");
        for (Map.Entry<Integer, Integer> e : new TreeMap<>(dscpOfPort).entrySet()) {
            int port = e.getKey();
            int dscp = e.getValue();
            if (port < 1 || port > 65535 || dscp < 0 || dscp > 63) {
                throw new IllegalArgumentException("bad tagging rule: local port " + port + " → DSCP " + dscp);
            }
            rules.append("    meta nfproto ipv4 tcp sport ").append(port).append(" ip dscp set ").append(dscp).append('\n');
            rules.append("    meta nfproto ipv6 tcp sport ").append(port).append(" ip6 dscp set ").append(dscp).append('\n');
        }
        rules.append("  }\n}\n");
        shell.run(nft(namespace, "-f", "-"), rules.toString()).orThrow();
        namespaces.add(key(namespace));
    }

    /** Removes a namespace's tagging rules (no error if there were none). */
    public void untag(String namespace) {
        CommandResult r = shell.run(nft(namespace, "delete", "table", "inet", TABLE));
        if (!r.ok() && !r.stderr().contains("No such file or directory")) {
            r.orThrow();
        }
        namespaces.remove(key(namespace));
    }

    /** The rule set as nft lists it, for status and tests. */
    public String list(String namespace) {
        return shell.check(nft(namespace, "list", "table", "inet", TABLE));
    }

    @Override
    public void close() {
        for (String ns : new ArrayList<>(namespaces)) {
            try {
                untag(ns.isEmpty() ? null : ns);
            } catch (RuntimeException e) {
                namespaces.remove(ns);
                log.warn("could not remove tagging: {}", e.getMessage());
            }
        }
    }

    private static String key(String namespace) {
        return namespace == null ? "" : namespace;
    }

    private static List<String> nft(String namespace, String... args) {
        List<String> c = new ArrayList<>();
        if (namespace != null) {
            c.addAll(List.of("ip", "netns", "exec", namespace));
        }
        c.add("nft");
        c.addAll(List.of(args));
        return c;
    }
}
