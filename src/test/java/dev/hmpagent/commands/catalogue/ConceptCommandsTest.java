package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.ConceptsDao;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConceptCommandsTest {
    @TempDir Path dir;
    CommandFixture f;
    ConceptsDao concepts;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir);
        concepts = new ConceptsDao(f.store);
        f.run(1, """
                [{"type": "concept_add", "args": {"name": "mesh", "description": "peer network"}},
                 {"type": "concept_add", "args": {"name": "network"}},
                 {"type": "concept_add", "args": {"name": "hmp", "description": "protocol"}},
                 {"type": "concept_add", "args": {"name": "graph"}},
                 {"type": "link_add", "args": {"from": "mesh", "to": "network", "relation_type": "is_a"}},
                 {"type": "link_add", "args": {"from": "hmp", "to": "mesh", "relation_type": "uses"}},
                 {"type": "link_add", "args": {"from": "network", "to": "graph", "relation_type": "is_a"}}]""");
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void concepts_and_links_are_saved_and_a_link_to_an_unknown_concept_is_refused() {
        List<CommandRun> runs = f.run(2, """
                [{"type": "link_add", "args": {"from": "mesh", "to": "nowhere"}},
                 {"type": "concept_add", "args": {"name": "mesh", "description": "a peer-to-peer network"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsExactly("error", "ok");
        assertThat(runs.get(0).result()).contains("no concept named \"nowhere\"").contains("concept_add");
        assertThat(concepts.search("mesh", 5)).filteredOn(c -> c.name().equals("mesh")).singleElement().satisfies(c -> {
            assertThat(c.description()).isEqualTo("a peer-to-peer network");
            assertThat(c.links()).containsExactly("is_a network", "(hmp uses this)");
        });
    }

    @Test
    void concept_read_shows_the_description_and_the_links_with_their_ids() {
        CommandRun read = f.one(2, "concept_read", "{\"name\": \"mesh\"}");
        assertThat(read.result()).isEqualTo("""
                concept 1 "mesh": peer network
                links:
                - [link 1] mesh is_a network
                - [link 2] hmp uses mesh""");
        assertThat(f.one(3, "concept_read", "{\"id\": 4}").result()).isEqualTo("concept 4 \"graph\"\n"
                + "links:\n- [link 3] network is_a graph");
        assertThat(f.one(4, "concept_read", "{\"name\": \"zebra\"}").result()).startsWith("concept_read: no concept named "
                + "\"zebra\"; diary_read");
        assertThat(f.registry.find("concept_read").orElseThrow().informs()).isTrue();
        assertThat(context(f.prompt(5), 2)).contains("[link 2] hmp uses mesh");
    }

    @Test
    void concept_update_renames_and_redescribes_but_never_onto_another_concepts_name() {
        List<CommandRun> runs = f.run(2, """
                [{"type": "concept_update", "args": {"id": 2, "name": "net", "description": "things connected"}},
                 {"type": "concept_update", "args": {"name": "mesh", "description": "peers"}},
                 {"type": "concept_update", "args": {"name": "hmp", "new_name": "mesh"}},
                 {"type": "concept_update", "args": {"name": "hmp"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "error", "error");
        assertThat(runs.get(2).result()).isEqualTo("concept_update: a concept named \"mesh\" exists already (id 1); "
                + "delete or rename that one first");
        assertThat(concepts.get(2)).hasValueSatisfying(c -> {
            assertThat(c.name()).isEqualTo("net");
            assertThat(c.description()).isEqualTo("things connected");
            assertThat(c.links()).as("links follow the id").contains("(mesh is_a this)");
        });
        assertThat(concepts.get(1)).hasValueSatisfying(c -> assertThat(c.description()).isEqualTo("peers"));
    }

    @Test
    void concept_delete_takes_its_links_with_it() {
        CommandRun del = f.one(2, "concept_delete", "{\"name\": \"mesh\"}");
        assertThat(del.result()).isEqualTo("concept 1 \"mesh\" deleted with 2 links");
        assertThat(concepts.idOf("mesh")).isEmpty();
        assertThat(concepts.linksOf(2)).extracting(l -> l.text()).containsExactly("network is_a graph");
        assertThat(concepts.linksOf(3)).isEmpty();
        assertThat(f.one(3, "concept_delete", "{\"id\": 1}").status()).isEqualTo("error");
    }

    @Test
    void links_go_by_id_or_by_from_and_to_and_unlink_is_the_same_command() {
        List<CommandRun> runs = f.run(2, """
                [{"type": "link_delete", "args": {"id": 3}},
                 {"type": "unlink", "args": {"from": "hmp", "to": "mesh", "relation_type": "uses"}},
                 {"type": "unlink", "args": {"from": "mesh", "to": "network", "relation_type": "part_of"}},
                 {"type": "link_delete", "args": {"id": 99}},
                 {"type": "unlink", "args": {"from": "mesh"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "error", "error", "error");
        assertThat(runs.get(0).result()).isEqualTo("link 3 deleted: network is_a graph");
        assertThat(runs.get(1).result()).isEqualTo("1 link deleted: hmp uses mesh");
        assertThat(runs.get(2).result()).startsWith("unlink: no link mesh part_of network");
        assertThat(runs.get(3).result()).contains("concept_read shows a concept's links with their ids");
        assertThat(concepts.linksOf(1)).extracting(l -> l.text()).containsExactly("mesh is_a network");
    }

    @Test
    void neighbours_reach_one_or_two_links_away_in_either_direction() {
        CommandRun near = f.one(2, "concept_neighbours", "{\"name\": \"mesh\"}");
        assertThat(near.result()).isEqualTo("""
                2 concepts within 1 link of "mesh" (nearest first):
                - network (1 link away; via [link 1] mesh is_a network)
                - hmp (1 link away; via [link 2] hmp uses mesh)""");
        CommandRun far = f.one(3, "concept_neighbours", "{\"name\": \"mesh\", \"depth\": 2}");
        assertThat(far.result()).contains("3 concepts within 2 links").contains("- graph (2 links away; via [link 3] network is_a graph)");
        assertThat(f.one(4, "concept_neighbours", "{\"name\": \"mesh\", \"depth\": 3}").result()).contains("args.depth must be from 1 to 2");
        assertThat(f.registry.find("concept_neighbours").orElseThrow().informs()).isTrue();
    }

    @Test
    void a_pinned_concept_shows_with_its_links_in_context_3_every_tick_until_unpinned() {
        assertThat(f.one(2, "concept_pin", "{\"name\": \"mesh\"}").result()).isEqualTo("concept 1 \"mesh\" pinned: it "
                + "shows in context 3 every tick until concept_unpin");
        for (long tick = 3; tick <= 4; tick++) {
            assertThat(context(f.prompt(tick), 3)).contains("[concept 1, pinned at tick 2] mesh: peer network; links: "
                    + "is_a network; (hmp uses this)");
        }
        f.one(5, "concept_unpin", "{\"id\": 1}");
        assertThat(context(f.prompt(6), 3)).doesNotContain("mesh");
    }
}
