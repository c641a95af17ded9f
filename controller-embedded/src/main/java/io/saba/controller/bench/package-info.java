/** The controller benchmark (a main class and {@code saba controller bench}, never a unit test). */
package io.saba.controller.bench;
