/**
 * Running operating-system commands ({@code ip}, {@code tc}, {@code nft}, ...) with errors that name the failing
 * command, its exit code and its stderr. Behind an interface so that code generating commands can be unit-tested
 * without root by recording what it would run.
 */
package io.saba.controller.shell;
