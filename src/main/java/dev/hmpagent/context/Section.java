package dev.hmpagent.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One context (1-6) as a title and items; trimming drops items from its least important end. It keeps the count of
 * code points it renders to as items come and go, so fitting the prompt to its budget never renders it to count.
 */
final class Section {
    /** An item, the row it came from (0 when none), and the outside text it shows fenced as data (or null). */
    record Item(String text, long rowId, AssembledPrompt.DataShown data) { }

    final int index;
    private final String header;
    private final String emptyText;
    private final int headerCodePoints;
    private final int emptyCodePoints;
    private final boolean dropOldestFirst;
    private final int keepAtLeast;
    private final List<Item> items = new ArrayList<>();
    /** Code points of the items as rendered, each with its line end. */
    private int itemCodePoints;
    private int dropped;

    /**
     * @param keepAtLeast items the budget may never take, so that each call shows something new
     *                    (context 2 and 4 keep one; otherwise a tiny budget would wake the LLM forever)
     */
    Section(int index, String title, String emptyText, boolean dropOldestFirst, int keepAtLeast) {
        this.index = index;
        this.header = "## Context " + index + " — " + Objects.requireNonNull(title, "title") + "\n";
        this.emptyText = Objects.requireNonNull(emptyText, "emptyText");
        this.headerCodePoints = count(header);
        this.emptyCodePoints = count(emptyText);
        this.dropOldestFirst = dropOldestFirst;
        this.keepAtLeast = keepAtLeast;
    }

    Section add(String text, long rowId) {
        return add(new Item(text, rowId, null));
    }

    /** An item whose text ends with outside text fenced as data. */
    Section add(String prefix, DataFence.Fenced fenced, long rowId) {
        return add(new Item(prefix + fenced.text(), rowId, fenced.shown()));
    }

    private Section add(Item item) {
        items.add(item);
        itemCodePoints += codePoints(item);
        return this;
    }

    /** How many items the budget took. */
    int dropped() {
        return dropped;
    }

    /** The outside text the items still in this section show. */
    List<AssembledPrompt.DataShown> dataShown() {
        return items.stream().map(Item::data).filter(Objects::nonNull).toList();
    }

    /** Takes the {@code n} oldest items out as the section's own window does, not as a trim: no "left out" line. */
    void leave(int n) {
        List<Item> leaving = items.subList(0, Math.min(n, items.size()));
        leaving.forEach(item -> itemCodePoints -= codePoints(item));
        leaving.clear();
    }

    boolean dropOne() {
        if (items.size() <= keepAtLeast) return false;
        itemCodePoints -= codePoints(items.remove(dropOldestFirst ? 0 : items.size() - 1));
        dropped++;
        return true;
    }

    List<Long> rowIds() {
        return items.stream().map(Item::rowId).filter(id -> id != 0).toList();
    }

    String render() {
        return String.join("", pieces());
    }

    /** The code points of {@link #render()}, kept as items come and go. */
    int codePoints() {
        int head = items.isEmpty() && dropped == 0 ? headerCodePoints + emptyCodePoints + 1 : headerCodePoints;
        return head + itemCodePoints + (dropped > 0 ? count(trailer()) : 0);
    }

    /** The rendered section in pieces: the header (with the empty text, if shown), each item, the trailer if any. */
    List<String> pieces() {
        List<String> pieces = new ArrayList<>(items.size() + 2);
        pieces.add(headerPiece());
        for (Item item : items) pieces.add(item.text() + "\n");
        if (dropped > 0) pieces.add(trailer());
        return pieces;
    }

    /**
     * The code points of white space at the end of {@link #render()}: what stripping the user message takes when this
     * section ends it. Counted without rendering: the trailer and the header are never white space only, and each
     * item's piece ends with its line end.
     */
    int trailingWhitespace() {
        if (dropped > 0) return 1;   // the trailer's line end
        if (items.isEmpty()) return trailingWhitespace(headerPiece());
        int count = 0;
        for (int i = items.size() - 1; i >= 0; i--) {
            String text = items.get(i).text();
            int ws = trailingWhitespace(text);
            count += ws + 1;
            if (ws < count(text)) return count;
        }
        return count + trailingWhitespace(header);
    }

    private static int trailingWhitespace(String s) {
        int count = 0;
        for (int i = s.length(); i > 0; ) {
            int cp = s.codePointBefore(i);
            if (!Character.isWhitespace(cp)) break;
            count++;
            i -= Character.charCount(cp);
        }
        return count;
    }

    private String headerPiece() {
        return items.isEmpty() && dropped == 0 ? header + emptyText + "\n" : header;
    }

    private String trailer() {
        return "(" + dropped + " more left out to fit the prompt budget)\n";
    }

    private static int codePoints(Item item) {
        return count(item.text()) + 1;
    }

    private static int count(String s) {
        return s.codePointCount(0, s.length());
    }

    /** {@code s} cut to {@code max} characters, saying how many more there were: the one clip the contexts use. */
    static String clip(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max) + "… (" + (s.length() - max) + " more chars)";
    }
}
