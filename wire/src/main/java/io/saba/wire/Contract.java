package io.saba.wire;

/**
 * Revisions of the saba.v1 contract (saba.proto's header lists what each added). Both ends say theirs when an
 * application registers, so the newer side can leave out what the older one would not understand.
 */
public final class Contract {
    /** The revision this build speaks. */
    public static final int REVISION = 3;
    /** The first revision whose controller keeps work signals. */
    public static final int SIGNALS = 2;
    /** The first revision with the Agents service (served only by a controller whose backend is {@code agents}). */
    public static final int AGENTS = 3;

    private Contract() {
    }

    /** Whether a controller that answered a registration with {@code revision} keeps work signals (0: revision 1). */
    public static boolean takesSignals(int revision) {
        return revision >= SIGNALS;
    }
}
