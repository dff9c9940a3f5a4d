package dev.hmpagent.store;

import java.util.List;

/**
 * A row of {@code notes}.
 *
 * @param hashtags what {@link NoteTags#hashtags} found when the note was created
 * @param mentions what {@link NoteTags#mentions} found when the note was created
 * @param replyTo  the note this one answers (note_reply), 0 for none
 */
public record NoteRow(long id, String text, String tags, String source, boolean read, int priority, String timestamp,
                      List<String> hashtags, List<String> mentions, long replyTo) {
    public NoteRow {
        hashtags = List.copyOf(hashtags);
        mentions = List.copyOf(mentions);
    }
}
