package dev.hmpagent.context;

import java.util.ArrayList;
import java.util.List;

/** One context (1-6) as a title and items; trimming drops items from its least important end. */
final class Section {
    /** An item and the row it came from (0 when none). */
    record Item(String text, long rowId) { }

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
        items.add(new Item(text, rowId));
        return this;
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
        StringBuilder sb = new StringBuilder("## Context ").append(index).append(" — ").append(title).append('\n');
        if (items.isEmpty() && dropped == 0) sb.append(emptyText).append('\n');
        for (Item item : items) sb.append(item.text()).append('\n');
        if (dropped > 0) sb.append("(").append(dropped).append(" more left out to fit the prompt budget)\n");
        return sb.toString();
    }
}
