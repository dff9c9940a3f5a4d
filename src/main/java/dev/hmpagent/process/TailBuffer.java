package dev.hmpagent.process;

import java.nio.charset.StandardCharsets;

/**
 * The last {@code capacity} bytes written to it, and how many came before them. Memory stays at
 * {@code capacity} bytes however much is written. Thread-safe: one thread appends while another
 * may render.
 */
final class TailBuffer {
    private final byte[] ring;
    private long total;

    TailBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1 byte, was " + capacity);
        }
        this.ring = new byte[capacity];
    }

    synchronized void append(byte[] bytes, int offset, int length) {
        int skip = Math.max(0, length - ring.length);
        long position = total + skip;
        int from = offset + skip;
        int left = length - skip;
        while (left > 0) {
            int at = (int) (position % ring.length);
            int n = Math.min(left, ring.length - at);
            System.arraycopy(bytes, from, ring, at, n);
            position += n;
            from += n;
            left -= n;
        }
        total += length;
    }

    synchronized long totalBytes() {
        return total;
    }

    /** How a rendering whose start was cut begins. */
    static final String CUT = "[… ";

    /**
     * The kept tail as text. When bytes were cut, a first line says how many, and a UTF-8
     * character cut in half at the start is dropped; anything still not valid UTF-8 becomes U+FFFD.
     */
    synchronized String render() {
        int kept = (int) Math.min(total, ring.length);
        byte[] tail = new byte[kept];
        if (total <= ring.length) {
            System.arraycopy(ring, 0, tail, 0, kept);
        } else {
            int start = (int) (total % ring.length);
            System.arraycopy(ring, start, tail, 0, ring.length - start);
            System.arraycopy(ring, 0, tail, ring.length - start, start);
        }
        if (total <= ring.length) {
            return new String(tail, StandardCharsets.UTF_8);
        }
        int lead = 0;
        while (lead < kept && lead < 3 && isContinuationByte(tail[lead])) {
            lead++;
        }
        int shown = kept - lead;
        return CUT + (total - shown) + " earlier bytes cut; last " + shown + " bytes shown]\n"
                + new String(tail, lead, shown, StandardCharsets.UTF_8);
    }

    private static boolean isContinuationByte(byte b) {
        return (b & 0xC0) == 0x80;
    }
}
