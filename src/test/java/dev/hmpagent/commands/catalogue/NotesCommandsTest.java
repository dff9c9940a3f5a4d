package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.context.ContextKeys;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.commands.UserMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.SettingsDao;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NotesCommandsTest {
    @TempDir Path dir;
    CommandFixture f;
    NotesDao notes;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir);
        notes = new NotesDao(f.store);
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void notes_list_filters_by_unread_source_and_tag_or_hashtag_and_returns_them_as_its_result() {
        notes.add("hello @agent, #mesh is down", "user", 1, null);
        notes.add("build finished", "cli", 0, "ci");
        notes.add("a peer says hi #Mesh", "peer", 0, null);
        notes.markRead(List.of(2L), 1);

        CommandRun unread = f.one(2, "notes_list", "{}");
        assertThat(unread.result()).isEqualTo("""
                2 unread notes (newest first; note_read shows one whole):
                - 3 from peer, priority 0, 2026-11-21T10:00:00Z, unread #mesh: a peer says hi #Mesh
                - 1 from user, priority 1, 2026-11-21T10:00:00Z, unread #mesh @agent: hello @agent, #mesh is down""");
        assertThat(f.one(3, "notes_list", "{\"unread_only\": false, \"tag\": \"ci\"}").result())
                .contains("1 note tagged ci").contains("- 2 from cli, priority 0, 2026-11-21T10:00:00Z, read, tags ci");
        assertThat(f.one(4, "notes_list", "{\"source\": \"user\", \"tag\": \"#mesh\"}").result())
                .startsWith("1 unread note from user tagged #mesh");
        assertThat(f.one(5, "notes_list", "{\"source\": \"system\"}").result()).isEqualTo("no unread notes from system");
        assertThat(notes.unreadCount()).as("listing reads nothing").isEqualTo(2);
        assertThat(f.registry.find("notes_list").orElseThrow().informs()).isTrue();
    }

    @Test
    void note_read_reads_a_long_note_in_pages_each_saying_where_the_next_begins() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < 2_000; i++) text.append("line ").append(i).append('\n');
        long id = notes.add(text.toString(), "user", 0, null);

        String first = f.one(1, "note_read", "{\"id\": " + id + "}").result();
        String second = f.one(2, "note_read", "{\"id\": " + id + ", \"from\": 800}").result();
        String third = f.one(3, "note_read", "{\"id\": " + id + ", \"from\": 1600}").result();

        assertThat(first).contains(text.substring(0, 800) + "… (" + (text.length() - 800)
                + " more chars: note_read {\"id\": " + id + ", \"from\": 800})").hasSizeLessThan(1_000);
        assertThat(second).contains("(from character 800 of " + text.length() + ") " + text.substring(800, 1_600) + "…")
                .contains("\"from\": 1600}");
        assertThat(third).endsWith(text.substring(1_600)).doesNotContain("more chars");
        assertThat(f.one(4, "note_read", "{\"id\": " + id + ", \"from\": 9000}").result())
                .contains("(nothing from character 9000: the note has " + text.length() + ")");
        assertThat(f.one(5, "note_read", "{\"id\": " + id + ", \"from\": -1}").status()).isEqualTo("error");
    }

    @Test
    void note_tag_and_note_mark_read_change_the_rows_and_name_the_ids_they_could_not_find() {
        long a = notes.add("first", "cli", 0, "old");
        long b = notes.add("second", "cli", 0, null);
        List<CommandRun> runs = f.run(1, """
                [{"type": "note_tag", "args": {"id": %d, "tags": ["Later", "mesh"]}},
                 {"type": "note_tag", "args": {"id": 99, "tags": "x"}},
                 {"type": "note_mark_read", "args": {"ids": [%d, 77]}},
                 {"type": "note_mark_read", "args": {"ids": [88]}}]""".formatted(a, b));
        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "error", "warning", "error");
        assertThat(runs.get(1).result()).isEqualTo("note_tag: no note with id 99; notes_list or context 4 shows the ids");
        assertThat(runs.get(2).result()).isEqualTo("marked 1 note read; no note with id 77 (notes_list or context 4 shows the ids)");
        assertThat(notes.get(a).orElseThrow().tags()).isEqualTo("later,mesh");
        assertThat(notes.get(b).orElseThrow().read()).isTrue();
        assertThat(context(f.prompt(2), 4)).contains("first").doesNotContain("second");
    }

    @Test
    void a_reply_to_a_persons_note_reaches_them_and_is_stored_linked_to_the_note() {
        long asked = notes.add("what time is it?", "user", 0, null);
        long peer = notes.add("status?", "peer", 0, null);

        CommandRun toPerson = f.one(3, "note_reply", "{\"id\": " + asked + ", \"text\": \"ten o'clock #time\"}");
        CommandRun toPeer = f.one(4, "note_reply", "{\"id\": " + peer + ", \"text\": \"all fine\"}");

        assertThat(toPerson.messageToUser()).map(UserMessage::text).contains("ten o'clock #time");
        assertThat(toPerson.result()).isEqualTo("reply delivered to the person (note 3, answering note 1)");
        NoteRow reply = notes.get(toPerson.messageToUser().orElseThrow().noteId()).orElseThrow();
        assertThat(reply.source()).isEqualTo("llm");
        assertThat(reply.replyTo()).isEqualTo(asked);
        assertThat(reply.hashtags()).containsExactly("time");
        assertThat(notes.get(asked).orElseThrow().read()).as("answered means read").isTrue();
        assertThat(toPeer.messageToUser()).isEmpty();
        assertThat(toPeer.result()).contains("reply stored as note 4, answering note 2 from peer").contains("peer_message");
        assertThat(f.one(5, "note_reply", "{\"id\": 3, \"text\": \"me again\"}").result())
                .startsWith("note_reply: note 3 is your own message");
        assertThat(context(f.prompt(6), 4)).as("the LLM's own replies never come back").contains("(no unread messages)");
    }

    @Test
    void a_reply_to_a_peers_a2a_message_completes_its_task_once_and_a_canceled_task_stays_canceled() {
        long asked = notes.add("what is the disk usage?", "peer", 0, "a2a");
        long other = notes.add("and the load?", "peer", 0, "a2a");
        f.store.inTransaction(() -> {
            f.store.tables().a2aTasks().add("t-1", "c-1", asked, "loopback", "{}", "[]");
            f.store.tables().a2aTasks().add("t-2", "c-1", other, "loopback", "{}", "[]");
            f.store.tables().a2aTasks().end("t-2", "canceled", null, "canceled by loopback");
        });

        CommandRun answered = f.one(3, "note_reply", "{\"id\": " + asked + ", \"text\": \"42 % used\"}");
        CommandRun late = f.one(4, "note_reply", "{\"id\": " + other + ", \"text\": \"0.3\"}");

        assertThat(answered.result()).isEqualTo("answer sent to peer loopback (A2A task t-1; note 3)");
        var task = f.store.tables().a2aTasks().get("t-1").orElseThrow();
        assertThat(task.state()).isEqualTo("completed");
        assertThat(task.answer()).isEqualTo("42 % used");
        assertThat(late.result()).contains("was canceled already, so it is not sent");
        assertThat(f.store.tables().a2aTasks().get("t-2").orElseThrow().answer()).isEmpty();
    }

    @Test
    void manual_mode_set_by_the_llm_counts_unread_notes_by_priority_source_and_hashtag_from_the_next_tick() {
        notes.add("urgent #mesh #ops", "cli", 2, null);
        notes.add("hello #mesh", "user", 0, null);
        notes.add("peer chatter", "peer", 0, null);
        assertThat(context(f.livePrompt(1, SettingsBounds.DEFAULTS).messages().get(1).content(), 4))
                .as("auto before").contains("urgent #mesh #ops");

        CommandRun mode = f.one(1, "notes_mode", "{\"mode\": \"manual\"}");
        assertThat(mode.result()).startsWith("notes mode manual from the next tick");
        assertThat(new SettingsDao(f.store).get(ContextKeys.NOTES_MODE)).contains("manual");

        AssembledPrompt next = f.livePrompt(2, SettingsBounds.DEFAULTS);
        String user = next.messages().get(1).content();
        assertThat(context(user, 4)).contains("3 unread (priority 2: 1, priority 0: 2). By source: cli: 1, peer: 1, user: 1. "
                        + "By hashtag: #mesh: 2, #ops: 1. Read one with note_read. Ids:")
                .contains("- 2 (priority 0, from user, 2026-11-21T10:00:00Z, #mesh)")
                .doesNotContain("urgent").doesNotContain("chatter");
        assertThat(context(user, 4).indexOf("- 2 (")).as("a person's first").isLessThan(context(user, 4).indexOf("- 1 ("));
        assertThat(context(user, 5)).contains("notes mode manual (set by you at tick 1)");
        assertThat(next.noteIdsShown()).as("nothing is read in manual mode").isEmpty();
    }

    @Test
    void an_auto_filter_set_by_the_llm_holds_back_other_notes_but_never_a_persons() {
        notes.add("low priority cli", "cli", 0, null);
        notes.add("important cli #ops", "cli", 2, null);
        notes.add("important peer", "peer", 2, null);
        notes.add("the person, priority -1", "user", -1, null);

        CommandRun mode = f.one(1, "notes_mode", "{\"mode\": \"auto\", \"filter\": {\"min_priority\": 1, \"sources\": [\"cli\"]}}");
        assertThat(mode.result()).endsWith("auto filter priority >= 1, sources cli (a person's own messages always pass)");

        AssembledPrompt next = f.livePrompt(2, SettingsBounds.DEFAULTS);
        String four = context(next.messages().get(1).content(), 4);
        assertThat(four).contains("the person, priority -1").contains("important cli #ops")
                .doesNotContain("low priority").doesNotContain("important peer");
        assertThat(four.indexOf("the person")).isLessThan(four.indexOf("important cli"));
        assertThat(context(next.messages().get(1).content(), 5))
                .contains("notes mode auto (filter: priority >= 1, sources cli) (set by you at tick 1)");

        CommandRun bad = f.one(3, "notes_mode", "{\"mode\": \"auto\", \"filter\": {\"sources\": [\"email\"]}}");
        assertThat(bad.status()).isEqualTo("error");
        assertThat(bad.result()).contains("unknown source \"email\"");
        assertThat(new SettingsDao(f.store).get(ContextKeys.NOTES_FILTER)).as("a bad filter changes nothing")
                .contains("{\"min_priority\":1,\"sources\":[\"cli\"]}");
        assertThat(f.one(4, "notes_mode", "{\"mode\": \"sometimes\"}").result()).contains("\"manual\" or \"auto\"");

        f.one(5, "notes_mode", "{\"mode\": \"auto\", \"filter\": null}");
        assertThat(context(f.livePrompt(6, SettingsBounds.DEFAULTS).messages().get(1).content(), 4))
                .as("back to agent.toml's filter").contains("low priority cli").contains("important peer");
    }

    @Test
    void context_4_caps_what_one_source_may_fill_a_persons_first_and_the_rest_wait_unread() {
        for (int i = 1; i <= 5; i++) notes.add("peer flood " + i, "peer", 0, null);
        notes.add("the person asks", "user", 0, null);
        notes.add("cli says", "cli", 0, null);

        AssembledPrompt p = f.assembler(10, 2).assemble(1, f.clock.instant(), f.defaults);
        String four = context(p.messages().get(1).content(), 4);

        assertThat(four).contains("the person asks").contains("peer flood 1").contains("peer flood 2").contains("cli says")
                .doesNotContain("peer flood 3")
                .contains("(3 more unread wait for later ticks: at most 2 from one source and 20 in all each tick)");
        assertThat(four.indexOf("the person asks")).isLessThan(four.indexOf("peer flood 1"));
        assertThat(p.noteIdsShown()).containsExactly(6L, 1L, 2L, 7L);
        assertThat(p.noteWatermark()).as("below the first note held back, so the rest still wake the LLM").isEqualTo(2);

        notes.markRead(p.noteIdsShown(), 1);
        AssembledPrompt later = f.assembler(10, 2).assemble(2, f.clock.instant(), f.defaults);
        assertThat(context(later.messages().get(1).content(), 4)).contains("peer flood 3").contains("peer flood 4")
                .doesNotContain("peer flood 5");
    }
}
