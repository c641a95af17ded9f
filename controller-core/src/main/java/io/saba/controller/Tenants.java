package io.saba.controller;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Who may call and what each caller sees, the same on every transport (gRPC and the HTTP pages): each tenant has a
 * bearer token; admin tenants may reload the table and see every tenant's applications; every other tenant sees its
 * own. With no tokens configured every caller is tenant "" and sees everything (one trust domain).
 */
public final class Tenants {
    /** The tenant of every caller when authentication is off. */
    public static final String NONE = "";

    private final Map<String, String> tokenOfTenant;
    private final Set<String> admins;

    /**
     * @param tokenOfTenant tenant → token; empty turns authentication off
     * @param admins        tenants that may reload the table and see all applications (ignored without tokens)
     */
    public Tenants(Map<String, String> tokenOfTenant, Set<String> admins) {
        this.tokenOfTenant = Map.copyOf(tokenOfTenant);
        this.admins = Set.copyOf(admins);
    }

    public boolean authenticating() {
        return !tokenOfTenant.isEmpty();
    }

    /**
     * The tenant a bearer token belongs to. Compared in constant time against every token, so timing does not
     * reveal which tenant matched.
     */
    public Optional<String> tenantOf(String token) {
        byte[] given = token.getBytes(StandardCharsets.UTF_8);
        String found = null;
        for (Map.Entry<String, String> e : tokenOfTenant.entrySet()) {
            if (MessageDigest.isEqual(given, e.getValue().getBytes(StandardCharsets.UTF_8))) {
                found = e.getKey();
            }
        }
        return Optional.ofNullable(found);
    }

    /** Whether this (authenticated) tenant may reload the table and see every tenant's applications. */
    public boolean isAdmin(String tenant) {
        return !authenticating() || admins.contains(tenant);
    }

    /** The status as this tenant may see it (see {@link StatusView#ofTenant}). */
    public StatusView visibleTo(String tenant, StatusView all) {
        return isAdmin(tenant) ? all : all.ofTenant(tenant);
    }
}
