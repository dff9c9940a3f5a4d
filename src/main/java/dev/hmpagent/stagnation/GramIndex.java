package dev.hmpagent.stagnation;

/**
 * The chunks of {@code width} characters of a growing text, each named by where it ends, with a way back to the
 * earlier chunks that may equal it: a rolling hash (mod 2<sup>61</sup>−1) of the last {@code width} characters, and
 * for each end within the last {@code reach} characters a link to the previous end that fell in the same bucket
 * (the hash chains of deflate). Equal chunks always share a hash; a shared hash is only a hint, which the caller
 * checks on the text itself. Fixed memory: nothing older than {@code reach} characters is kept.
 */
final class GramIndex {
    private static final long MOD = (1L << 61) - 1;
    private static final long BASE = 0x1F3D5B79A4C6E28L % MOD;

    private final int width;
    private final int window;
    private final long topPower;       // BASE^(width-1): the weight of the character about to leave
    private final long[] hashAt;
    private final int[] previousAt;
    private final int[] head;
    private final int mask;
    private long hash;
    private int length;

    GramIndex(int width, int reach) {
        this.width = width;
        this.window = reach + 1;       // the ends e-reach … e fall in distinct slots
        long power = 1;
        for (int i = 1; i < width; i++) power = mulMod(power, BASE);
        this.topPower = power;
        this.hashAt = new long[window];
        this.previousAt = new int[window];
        int buckets = Integer.highestOneBit(Math.max(16, 2 * window - 1)) << 1;
        this.head = new int[buckets];
        java.util.Arrays.fill(head, -1);
        this.mask = buckets - 1;
    }

    /** Takes the text's next character, {@code leaving} the one {@code width} places before it (ignored until then). */
    void add(char c, char leaving) {
        if (length >= width) hash = subMod(hash, mulMod(leaving, topPower));
        hash = addMod(mulMod(hash, BASE), c);
        length++;
        if (length < width) return;
        int slot = length % window;
        int bucket = (int) (hash ^ (hash >>> 29)) & mask;
        hashAt[slot] = hash;
        previousAt[slot] = head[bucket];
        head[bucket] = length;
    }

    /** The hash of the chunk ending at the text's current end (valid once the text has {@code width} characters). */
    long hash() {
        return hash;
    }

    /** The hash of the chunk ending at {@code end}, which is within {@code reach} of the current end. */
    long hashAt(int end) {
        return hashAt[end % window];
    }

    /** The previous end in the same bucket as {@code end} (within {@code reach} of the current end), or -1; older ones may be stale. */
    int previous(int end) {
        return previousAt[end % window];
    }

    private static long mulMod(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        long r = (low & MOD) + (low >>> 61) + (high << 3);
        r = (r & MOD) + (r >>> 61);
        return r >= MOD ? r - MOD : r;
    }

    private static long addMod(long a, long b) {
        long r = a + b;
        return r >= MOD ? r - MOD : r;
    }

    private static long subMod(long a, long b) {
        long r = a - b;
        return r < 0 ? r + MOD : r;
    }
}
