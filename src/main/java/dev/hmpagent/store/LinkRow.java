package dev.hmpagent.store;

/** A row of {@code links}: {@code from} {@code relation} {@code to}, with the concepts' names. */
public record LinkRow(long id, long fromId, String from, String relation, long toId, String to) {
    /** "mesh is_a network". */
    public String text() {
        return from + " " + relation + " " + to;
    }
}
