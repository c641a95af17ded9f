/**
 * The gRPC face of the controller: the saba.v1 service (translation only), request validation, token
 * authentication, and the server's lifecycle.
 */
package io.saba.controller.grpc;
