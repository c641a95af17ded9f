package io.saba.harness.packet;

import java.util.Locale;

/**
 * What {@code --figure fig8-packet} runs every setup under: ways to use the switch's VLs, the switches' congestion
 * control, each job by itself, and the fluid simulator's pair of the same draws. Each scheme after the first four is
 * one mechanism switched on or off, so its difference from a neighbour says what that mechanism is worth.
 */
public enum Fig8Scheme {
    /** Every SL on VL 0 without congestion control: a lossless shared VL. */
    SHARED("shared VL"),
    /** Every SL on VL 0 with InfiniBand congestion control (FECN/BECN, CCT): the paper's baseline (§4.6.1). */
    SHARED_CC("shared VL + IB CC"),
    /** The same VLs as Saba, equal weights, applications spread over them in turn: separation without sensitivity. */
    CONTROL("control: 8 VLs, equal"),
    /** Saba with the co-run predictor's weights ({@code allocation: corun}; the controller defaults to eq2). */
    SABA("Saba (corun)"),
    /** Saba with the paper's Eq. 2 weights. */
    SABA_EQ2("Saba (eq2)"),
    /** Saba's levels and level → VL map, every VL weighted equally: Saba's grouping without its weights. */
    SABA_EQUAL("Saba levels, equal weights"),
    /** The control with every data VL InfiniBand has (15): how much sharing 8 VLs among 16 jobs costs. */
    CONTROL_15("control: 15 VLs, equal"),
    /**
     * Saba's levels, queues and weights, each application on an SL of its own and every port's unused VLs spent on
     * Saba's most crowded queues: whether Saba loses to the control only by leaving VLs unused.
     */
    SABA_SPREAD("Saba, spare VLs spread"),
    /**
     * The controller with {@code level-per: application} and the co-run predictor's weights: each application on a
     * level of its own while levels are free, a port's levels fitted into its VLs by the level hierarchy (one
     * workload's applications share a VL only where the port has too few). What {@link #SABA_SPREAD} measures,
     * done by the controller's own pipeline.
     */
    SABA_APPS("Saba, a level per application"),
    /**
     * {@link #SABA_APPS} with every VL weighted equally: the controller's best separation without its weights, so
     * that the two differ only by what sensitivity decides.
     */
    SABA_APPS_EQUAL("Saba, a level per application, equal weights"),
    /**
     * Saba (corun) with its co-run predictor told each job's dataset scale: every job's traffic record stretched by
     * it, as the job's bytes and compute are. An oracle the controller does not have (it knows a job's workload, not
     * its size): whether Saba's weights lose to equal ones because the predictor cannot tell a short job from a
     * long one. Run only when named.
     */
    SABA_SIZED("Saba, predictor told job sizes"),
    /** Each job by itself on its hosts, shared VL: what no separation can beat. */
    ALONE("each job alone"),
    /** The fluid simulator's per-flow max-min on the same draws ({@code --figure fig8}'s baseline). */
    FLUID_MAX_MIN("fluid per-flow max-min"),
    /** The fluid simulator's Saba on the same draws ({@code --figure fig8}'s Saba). */
    FLUID_SABA("fluid Saba (corun)");

    private final String label;

    Fig8Scheme(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** Whether {@code --schemes} left out runs it: every scheme but the oracle {@link #SABA_SIZED}. */
    public boolean byDefault() {
        return this != SABA_SIZED;
    }

    /** The scheme's time is in the fluid simulator's seconds (the workloads unscaled), not the packet model's. */
    public boolean fluid() {
        return this == FLUID_MAX_MIN || this == FLUID_SABA;
    }

    /** The name on the command line: shared, shared-cc, control, saba, … */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Fig8Scheme parse(String s) {
        for (Fig8Scheme f : values()) {
            if (f.cliName().equals(s.trim().toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown fig8-packet scheme '" + s + "': "
                + java.util.Arrays.stream(values()).map(Fig8Scheme::cliName).toList());
    }
}
