package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small model that chants, met in a pipe (issue 35): {@code printf 'q\n' | agent} with the real program and a
 * scripted server. What it said is shown cut at its first repeats, the pause says why and what to do, and after
 * {@code agent unlock} the next piped question gets its answer.
 */
@Timeout(120)
class ChantingPipeEndToEndTest {
    static final String INTRO = "The model sizes are ";
    static final String LOOP = "300M ";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    /** The program on {@code dir}: agent.toml written once, so a test may change it. */
    AgentProgram program;

    @BeforeEach
    void start() throws java.io.IOException {
        llm = new FakeOpenAiServer();
        program = AgentProgram.in(dir, llm.baseUrl());
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    record Run(int code, String out, String err) { }

    /** The agent itself, {@code input} piped in, with {@code flags} added. */
    Run agent(String input, String... flags) throws Exception {
        List<String> argv = new ArrayList<>(program.argv());
        argv.addAll(List.of(flags));
        return program(argv, input);
    }

    /** A subcommand of the real program on the same file: java … Main unlock … --config … --db …. */
    Run subcommand(String... args) throws Exception {
        AgentProgram agent = program;
        List<String> argv = new ArrayList<>(agent.argv().subList(0, agent.argv().indexOf(Main.class.getName()) + 1));
        argv.addAll(List.of(args));
        argv.addAll(List.of("--config", dir.resolve("agent.toml").toString(), "--db", agent.db().toString()));
        return program(argv, "");
    }

    private Run program(List<String> argv, String input) throws Exception {
        AgentProgram agent = program;
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        pb.environment().clear();
        pb.environment().putAll(agent.env("xterm-256color"));
        Process p = pb.start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        boolean exited = p.waitFor(90, TimeUnit.SECONDS);
        if (!exited) p.destroyForcibly().waitFor();
        Run run = new Run(exited ? p.exitValue() : -1, Files.readString(stdout, StandardCharsets.UTF_8),
                Files.readString(stderr, StandardCharsets.UTF_8));
        assertThat(exited).as("exited within 90 s; output:\n" + run.out() + run.err()).isTrue();
        return run;
    }

    long count(String sql) throws Exception {
        Path db = dir.resolve("agent.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test
    void a_chanting_answer_is_shown_cut_at_its_first_repeats_says_what_to_do_and_is_not_asked_again() throws Exception {
        CountDownLatch closed = new CountDownLatch(2);
        llm.chanting(INTRO, LOOP, closed).chanting(INTRO, LOOP, closed);

        Run answered = agent("which sizes are there?\n");

        // issue 35: it used to be asked again, chant again, and pause the agent (exit 7) with nothing shown
        assertThat(answered.code()).as("answered; output:\n" + answered.out() + answered.err()).isZero();
        // cut where its loop began and said twice: never the wall the model was writing
        assertThat(answered.out()).isEqualTo("The model sizes are 300M 300M …\n");
        assertThat(answered.err()).contains("not asked again until your next message")
                .contains("this model repeats itself: try a larger model, /model NAME");
        assertThat(llm.requestCount()).as("one call").isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE content = 'The model sizes are 300M 300M …'"))
                .as("kept as shown").isEqualTo(1);
    }

    @Test
    void thinking_on_its_own_a_model_chanting_twice_is_paused_and_the_pause_says_why_and_what_to_do() throws Exception {
        CountDownLatch closed = new CountDownLatch(2);
        llm.chanting(INTRO, LOOP, closed).chanting(INTRO, LOOP, closed);
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[cycle]\nautonomous = true\n");

        Run paused = agent("which sizes are there?\n");

        assertThat(paused.code()).as("ERROR_PAUSED exits 7; output:\n" + paused.out() + paused.err()).isEqualTo(7);
        assertThat(paused.err().lines().filter(l -> l.contains("ERROR_PAUSED"))).as(paused.err()).singleElement()
                .asString().contains("this model repeats itself").contains("try a larger model, /model NAME")
                .contains("agent unlock");
    }

    @Test
    void after_an_unlock_from_a_chanting_pause_the_next_piped_question_shows_its_answer() throws Exception {
        CountDownLatch closed = new CountDownLatch(2);
        llm.chanting(INTRO, LOOP, closed).chanting(INTRO, LOOP, closed);
        // thinking on its own, the chant row wakes the model again, and the second chant pauses the agent
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[cycle]\nautonomous = true\n");
        Run paused = agent("which sizes are there?\n", "-q");
        assertThat(paused.code()).as("ERROR_PAUSED exits 7; output:\n" + paused.out() + paused.err()).isEqualTo(7);
        assertThat(count("SELECT count(*) FROM process_log WHERE name = 'chanting'")).isEqualTo(2);
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n");

        Run unlock = subcommand("unlock", "--reason", "try again");
        assertThat(unlock.code()).as(unlock.out() + unlock.err()).isZero();

        // the unlock's note may wake the agent before the piped line is stored: that tick answers the note alone
        llm.streamed("The sizes are 100M, 200M and 300M.", 10, 10).streamed("The sizes are 100M, 200M and 300M.", 10, 10);
        Run asked = agent("which sizes, once?\n", "-q");

        assertThat(asked.out()).as("the answer on stdout; stderr:\n" + asked.err())
                .contains("The sizes are 100M, 200M and 300M.");
        assertThat(asked.code()).as(asked.err()).isZero();
    }
}
