/**
 * Saba's wire vocabulary, shared by the client library and the controller: the saba.v1 contract (generated here and
 * only here, package {@code io.saba.proto.v1}), the {@link io.saba.wire.ConnectionKey} both ends key a connection
 * by, its {@link io.saba.wire.Transport}, the one converter between the two ({@link io.saba.wire.ConnectionProto}),
 * the level → DSCP map ({@link io.saba.wire.DscpMap}) by which senders tag packets and fabrics classify them,
 * and the work signals an application reports ({@link io.saba.wire.WorkSignals}, converted by
 * {@link io.saba.wire.SignalsProto}).
 */
package io.saba.wire;
