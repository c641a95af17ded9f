package io.saba.core.topology;

/**
 * A full-duplex cable between two nodes' ports, with the same capacity in each direction.
 *
 * @param a     one node (host or switch)
 * @param portA its port number
 * @param b     the other node
 * @param portB its port number
 * @param gbps  capacity per direction, Gbit/s
 */
public record Link(String a, int portA, String b, int portB, double gbps) {
    public Link {
        if (a == null || b == null || a.isBlank() || b.isBlank()) {
            throw new IllegalArgumentException("a link needs two node names");
        }
        if (a.equals(b)) {
            throw new IllegalArgumentException("a link cannot connect " + a + " to itself");
        }
        if (portA < 0 || portB < 0) {
            throw new IllegalArgumentException("port numbers must be ≥ 0 on link " + a + "-" + b);
        }
        if (!(gbps > 0) || Double.isInfinite(gbps)) {
            throw new IllegalArgumentException("link " + a + "-" + b + " needs a positive finite capacity, got " + gbps);
        }
    }
}
