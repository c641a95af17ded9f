/** {@code saba testbed up|status|down|exec|proof}: the namespace testbed from the command line. */
package io.saba.cli.testbed;
