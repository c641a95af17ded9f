/**
 * The harness: a flow-level datacenter simulator ({@code sim}) and the campaigns that reproduce the Saba paper's
 * evaluation with it ({@code campaign}).
 */
package io.saba.harness;
