package dev.hmpagent.context;

import java.util.ArrayList;
import java.util.List;

/** One context (1-6) as a title and items; trimming drops items from its least important end. */
final class Section {
    /** An item, the row it came from (0 when none), and the outside text it shows fenced as data (or null). */
    record Item(String text, long rowId, AssembledPrompt.DataShown data) { }

    final int index;
    final String title;
    final String emptyText;
    final boolean dropOldestFirst;
    final int keepAtLeast;
    final List<Item> items = new ArrayList<>();
    int dropped;

    /**
     * @param keepAtLeast items the budget may never take, so that each call shows something new
     *                    (context 2 and 4 keep one; otherwise a tiny budget would wake the LLM forever)
     */
    Section(int index, String title, String emptyText, boolean dropOldestFirst, int keepAtLeast) {
        this.index = index;
        this.title = title;
        this.emptyText = emptyText;
        this.dropOldestFirst = dropOldestFirst;
        this.keepAtLeast = keepAtLeast;
    }

    Section add(String text, long rowId) {
        items.add(new Item(text, rowId, null));
        return this;
    }

    /** An item whose text ends with outside text fenced as data. */
    Section add(String prefix, DataFence.Fenced fenced, long rowId) {
        items.add(new Item(prefix + fenced.text(), rowId, fenced.shown()));
        return this;
    }

    /** The outside text the items still in this section show. */
    List<AssembledPrompt.DataShown> dataShown() {
        return items.stream().map(Item::data).filter(java.util.Objects::nonNull).toList();
    }

    /** Takes the {@code n} oldest items out as the section's own window does, not as a trim: no "left out" line. */
    void leave(int n) {
        items.subList(0, Math.min(n, items.size())).clear();
    }

    boolean dropOne() {
        if (items.size() <= keepAtLeast) return false;
        items.remove(dropOldestFirst ? 0 : items.size() - 1);
        dropped++;
        return true;
    }

    List<Long> rowIds() {
        return items.stream().map(Item::rowId).filter(id -> id != 0).toList();
    }

    String render() {
        return String.join("", pieces());
    }

    /** The rendered section in pieces: the header (with the empty text, if shown), each item, the trailer if any. */
    List<String> pieces() {
        List<String> pieces = new ArrayList<>();
        String header = "## Context " + index + " — " + title + "\n";
        pieces.add(items.isEmpty() && dropped == 0 ? header + emptyText + "\n" : header);
        for (Item item : items) pieces.add(item.text() + "\n");
        if (dropped > 0) pieces.add("(" + dropped + " more left out to fit the prompt budget)\n");
        return pieces;
    }
}
