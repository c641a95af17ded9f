package io.saba.controller.server;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * The keys of the controller's configuration file and their types, checked before {@link ControllerConfig} reads
 * it. The topology section has a shape per form (checked by the topology loader); backend options are the backend's.
 */
record ConfigShape(String listen, String http, JsonNode topology, String table, String allocation,
        @JsonProperty("corun-margin") Double corunMargin, String sensitivity, @JsonProperty("c-saba") Double cSaba,
        Integer levels, String backend, @JsonProperty("backend-options") Map<String, JsonNode> backendOptions,
        @JsonProperty("lease-timeout-seconds") Double leaseTimeoutSeconds,
        @JsonProperty("journal-dir") String journalDir, @JsonProperty("journal-fsync") String journalFsync,
        @JsonProperty("journal-fsync-millis") Long journalFsyncMillis, Tls tls, Map<String, String> tokens,
        @JsonProperty("agent-tokens") Map<String, String> agentTokens,
        @JsonProperty("admin-tenants") List<String> adminTenants, @JsonProperty("grpc-threads") Integer grpcThreads,
        @JsonProperty("recompute-interval-millis") Long recomputeIntervalMillis, String group, String cluster,
        @JsonProperty("level-per") String levelPer) {

    record Tls(String cert, String key) {
    }
}
