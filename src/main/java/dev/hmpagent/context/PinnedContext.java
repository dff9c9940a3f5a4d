package dev.hmpagent.context;

import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.SettingsDao;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Context 3: what the anti-stagnation reflex shows, the pinned diary entries and concepts (oldest pin first, at most
 * {@code pinCap}: the most recently pinned, and a line says how many older pins were left out), then those
 * {@code diary_read} asked for. Diary text is fenced as data.
 */
final class PinnedContext {
    static final int INDEX = 3;
    private static final int MAX_ENTRY_CHARS = 2_000;

    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final SettingsDao runtimeSettings;
    private final int pinCap;

    /** A pinned diary entry or concept. */
    private record Pin(long tick, int kind, long id, DiaryRow entry, ConceptRow concept) { }

    PinnedContext(DiaryDao diary, ConceptsDao concepts, SettingsDao runtimeSettings, int pinCap) {
        this.diary = Objects.requireNonNull(diary, "diary");
        this.concepts = Objects.requireNonNull(concepts, "concepts");
        this.runtimeSettings = Objects.requireNonNull(runtimeSettings, "runtimeSettings");
        if (pinCap < 0) throw new IllegalArgumentException("pinCap < 0: " + pinCap);
        this.pinCap = pinCap;
    }

    Section render(DataFence fence, List<ReflexDao.Item> reflex) {
        Section s = new Section(INDEX, "pinned diary entries and concepts, and those you asked for (diary_read)",
                "(none pinned or requested)", false, 0);
        for (ReflexDao.Item i : reflex) {
            s.add("[anti-stagnation reflex, " + i.strategy() + ", since tick " + i.tickId() + "] ",
                    fence.wrap("reflex " + i.id(), i.text()), 0);
        }
        Set<Long> shownDiary = new HashSet<>();
        Set<Long> shownConcepts = new HashSet<>();
        for (Pin p : pins(s)) {
            if (p.entry() != null) {
                shownDiary.add(p.id());
                s.add(diaryItem(p.entry(), ", pinned at tick " + p.tick()), entryText(fence, p.entry()), 0);
            } else {
                shownConcepts.add(p.id());
                s.add(conceptItem(p.concept(), ", pinned at tick " + p.tick()), 0);
            }
        }
        requested(s, fence, shownDiary, shownConcepts);
        return s;
    }

    /** The pins shown, oldest pin first; adds the line that says how many older ones were left out, if any. */
    private List<Pin> pins(Section s) {
        List<Pin> pins = new ArrayList<>();
        diary.pinned(pinCap).forEach(p -> pins.add(new Pin(p.tick(), 0, p.row().id(), p.row(), null)));
        concepts.pinned(pinCap).forEach(p -> pins.add(new Pin(p.tick(), 1, p.row().id(), null, p.row())));
        pins.sort(Comparator.comparingLong(Pin::tick).thenComparingInt(Pin::kind).thenComparingLong(Pin::id));
        List<Pin> shown = pins.subList(Math.max(0, pins.size() - pinCap), pins.size());
        long leftOut = diary.pinnedCount() + concepts.pinnedCount() - shown.size();
        if (leftOut > 0) {
            s.add("(" + leftOut + " older pin" + (leftOut == 1 ? "" : "s") + " left out: at most " + pinCap
                    + " pinned entries and concepts show; unpin what you no longer need)", 0);
        }
        return shown;
    }

    /** The diary entries and concepts diary_read asked for that no pin shows already. */
    private void requested(Section s, DataFence fence, Set<Long> shownDiary, Set<Long> shownConcepts) {
        String query = runtimeSettings.get(ContextKeys.DIARY_QUERY).orElse(null);
        if (query == null) return;
        int limit = runtimeSettings.get(ContextKeys.DIARY_LIMIT).map(Integer::parseInt).orElse(5);
        for (DiaryRow d : diary.search(query, limit)) {
            if (!shownDiary.contains(d.id())) s.add(diaryItem(d, ""), entryText(fence, d), 0);
        }
        for (ConceptRow c : concepts.search(query, limit)) {
            if (!shownConcepts.contains(c.id())) s.add(conceptItem(c, ""), 0);
        }
    }

    private static DataFence.Fenced entryText(DataFence fence, DiaryRow d) {
        return fence.wrap("diary " + d.id(), Section.clip(d.text(), MAX_ENTRY_CHARS));
    }

    private static String diaryItem(DiaryRow d, String pin) {
        return "[diary " + d.id() + ", " + d.timestamp() + (d.tags() == null ? "" : ", tags " + d.tags()) + pin + "] ";
    }

    private static String conceptItem(ConceptRow c, String pin) {
        return "[concept " + c.id() + pin + "] " + c.name()
                + (c.description().isEmpty() ? "" : ": " + Section.clip(c.description(), 500))
                + (c.links().isEmpty() ? "" : "; links: " + String.join("; ", c.links()));
    }
}
