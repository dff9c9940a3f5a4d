package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.stagnation.StagnationSigns.Signs;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StagnationSignsTest {
    /** Repeat and novelty signs alone: growth and stimulus signs off. */
    static final SignSettings WORDS_ONLY = new SignSettings(0.3, 2, true, 0, 0, 12);

    /** A tick builder: by default a new, distinct reply with nothing shown and nothing built. */
    static final class Tick {
        long id;
        double novelty = 0.9;
        boolean identical;
        long repeatOf;
        boolean stimulus;
        boolean person;
        boolean growth;

        Tick(long id) {
            this.id = id;
        }

        Tick novelty(double n) { novelty = n; return this; }
        Tick identical() { identical = true; novelty = 0; return this; }
        Tick repeatOf(long tick) { repeatOf = tick; return this; }
        Tick stimulus() { stimulus = true; return this; }
        Tick person() { person = true; return this; }
        Tick growth() { growth = true; return this; }

        TickObservation done() {
            return new TickObservation(id, novelty, identical, repeatOf, stimulus, person, growth);
        }
    }

    static Tick tick(long id) {
        return new Tick(id);
    }

    /** Ticks 1..n, each new, with a stimulus and growth: healthy on every count. */
    static List<TickObservation> busy(int n) {
        List<TickObservation> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) out.add(tick(i).stimulus().growth().done());
        return out;
    }

    static List<TickObservation> of(Tick... ticks) {
        List<TickObservation> out = new ArrayList<>();
        for (Tick t : ticks) out.add(t.done());
        return out;
    }

    @Test
    void fewer_than_two_replies_in_the_window_are_never_stagnant() {
        SignSettings eager = new SignSettings(0.3, 1, true, 1, 1, 2);
        assertThat(StagnationSigns.evaluate(List.of(), eager).stagnant()).isFalse();
        Signs one = StagnationSigns.evaluate(of(tick(5).identical().repeatOf(4)), eager);
        assertThat(one).isEqualTo(new Signs(false, false, false, false, false, 1, 0, eager));
        // the same reply after a person's message: a window of one, whatever came before
        Signs afterMessage = StagnationSigns.evaluate(of(tick(1).novelty(0.1), tick(2).novelty(0.1),
                tick(3).person().identical().repeatOf(2)), eager);
        assertThat(afterMessage.stagnant()).isFalse();
        assertThat(afterMessage.windowTicks()).isEqualTo(1);
    }

    @Test
    void a_persons_message_resets_the_window() {
        SignSettings three = new SignSettings(0.3, 3, true, 0, 0, 12);
        List<TickObservation> ticks = of(tick(1).novelty(0.1), tick(2).novelty(0.1), tick(3).novelty(0.1));
        assertThat(StagnationSigns.evaluate(ticks, three).lowNovelty()).as("three flat replies").isTrue();

        ticks.add(tick(4).person().novelty(0.1).done());
        ticks.add(tick(5).novelty(0.1).done());
        Signs afterMessage = StagnationSigns.evaluate(ticks, three);
        assertThat(afterMessage.windowTicks()).isEqualTo(2);
        assertThat(afterMessage.stagnant()).as("only two flat replies since the message").isFalse();

        ticks.add(tick(6).novelty(0.1).done());
        assertThat(StagnationSigns.evaluate(ticks, three).lowNovelty()).isTrue();
    }

    @Test
    void novelty_below_the_threshold_for_n_ticks_in_a_row_is_low_novelty() {
        assertThat(StagnationSigns.evaluate(of(tick(1), tick(2).novelty(0.2), tick(3).novelty(0.1)), WORDS_ONLY)
                .lowNovelty()).isTrue();
        assertThat(StagnationSigns.evaluate(of(tick(1).novelty(0.1), tick(2).novelty(0.9), tick(3).novelty(0.1)),
                WORDS_ONLY).stagnant()).as("only the last is flat").isFalse();
        assertThat(StagnationSigns.evaluate(of(tick(1).novelty(0.1), tick(2).novelty(0.3)), WORDS_ONLY).stagnant())
                .as("the threshold itself is new enough").isFalse();
        Signs flat = StagnationSigns.evaluate(of(tick(1).novelty(0.29), tick(2).novelty(0.0)), WORDS_ONLY);
        assertThat(flat.stagnant()).isTrue();
        assertThat(flat.describe()).containsExactly("novelty below 0.30 for 2 ticks");
    }

    @Test
    void low_novelty_needs_as_many_ticks_in_the_window_as_the_setting() {
        SignSettings four = new SignSettings(0.3, 4, false, 0, 0, 12);
        List<TickObservation> flat = of(tick(1).novelty(0.1), tick(2).novelty(0.1), tick(3).novelty(0.1));
        assertThat(StagnationSigns.evaluate(flat, four).lowNovelty()).isFalse();
        flat.add(tick(4).novelty(0.1).done());
        assertThat(StagnationSigns.evaluate(flat, four).lowNovelty()).isTrue();
    }

    @Test
    void an_exact_repeat_of_an_earlier_reply_not_only_the_last_is_a_repeat() {
        // the reply of tick 4 equals tick 2's: new next to tick 3's, but a repeat all the same
        Signs s = StagnationSigns.evaluate(of(tick(1), tick(2), tick(3), tick(4).novelty(0.8).repeatOf(2)), WORDS_ONLY);
        assertThat(s.repeat()).isTrue();
        assertThat(s.lowNovelty()).isFalse();
        assertThat(s.stagnant()).isTrue();
        assertThat(s.repeatOfTick()).isEqualTo(2);
        assertThat(s.describe()).containsExactly("repeats tick 2 word for word");
    }

    @Test
    void an_identical_reply_is_a_repeat_of_the_previous_one() {
        Signs s = StagnationSigns.evaluate(of(tick(1), tick(2).identical()), new SignSettings(0.3, 3, true, 0, 0, 12));
        assertThat(s.repeat()).isTrue();
        assertThat(s.describe()).containsExactly("repeats the previous reply word for word");
    }

    @Test
    void a_repeat_is_no_sign_when_the_repeat_sign_is_off() {
        SignSettings off = new SignSettings(0.3, 2, false, 0, 0, 12);
        assertThat(StagnationSigns.evaluate(of(tick(1), tick(2).novelty(0.8).repeatOf(1)), off).stagnant()).isFalse();
    }

    @Test
    void no_growth_and_no_stimulus_together_are_stagnant_though_the_words_vary() {
        List<TickObservation> ticks = new ArrayList<>();
        for (int i = 1; i <= 7; i++) ticks.add(tick(i).novelty(0.9).done());
        Signs seven = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(seven.noGrowth() || seven.noStimulus()).as("seven ticks are not yet eight").isFalse();
        ticks.add(tick(8).novelty(0.9).done());
        Signs s = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(s.lowNovelty()).isFalse();
        assertThat(s.repeat()).isFalse();
        assertThat(s.noGrowth()).isTrue();
        assertThat(s.noStimulus()).isTrue();
        assertThat(s.stagnant()).isTrue();
        assertThat(s.describe()).containsExactly("no new concept or link for 8 ticks", "no new note or result for 8 ticks");
    }

    @Test
    void no_growth_alone_is_not_stagnant() {
        List<TickObservation> ticks = new ArrayList<>();
        for (int i = 1; i <= 10; i++) ticks.add(tick(i).stimulus().done());
        Signs s = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(s.noGrowth()).isTrue();
        assertThat(s.noStimulus()).isFalse();
        assertThat(s.stagnant()).isFalse();
    }

    @Test
    void no_stimulus_alone_is_not_stagnant() {
        List<TickObservation> ticks = new ArrayList<>();
        for (int i = 1; i <= 10; i++) ticks.add(tick(i).growth().done());
        Signs s = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(s.noStimulus()).isTrue();
        assertThat(s.noGrowth()).isFalse();
        assertThat(s.stagnant()).isFalse();
    }

    @Test
    void one_growth_or_stimulus_among_the_last_n_ticks_clears_that_sign() {
        List<TickObservation> ticks = new ArrayList<>();
        for (int i = 1; i <= 12; i++) ticks.add(i == 5 ? tick(i).growth().stimulus().done() : tick(i).done());
        assertThat(StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS).stagnant()).as("tick 5 is among 5..12").isFalse();
        ticks.add(tick(13).done());
        assertThat(StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS).stagnant()).as("6..13 are empty").isTrue();
    }

    @Test
    void the_tick_with_a_persons_message_is_a_stimulus_so_no_stimulus_needs_n_further_ticks() {
        List<TickObservation> ticks = of(tick(1).person());
        for (int i = 2; i <= 8; i++) ticks.add(tick(i).done());
        Signs seven = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(seven.noGrowth()).as("eight ticks without growth").isTrue();
        assertThat(seven.noStimulus()).as("the message is among the last eight").isFalse();
        ticks.add(tick(9).done());
        assertThat(StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS).noStimulus()).isTrue();
    }

    @Test
    void a_stagnant_window_of_overheat_ticks_is_overheated() {
        List<TickObservation> ticks = of(tick(1).person().novelty(0.1));
        for (int i = 2; i <= 11; i++) ticks.add(tick(i).novelty(0.1).stimulus().growth().done());
        Signs eleven = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(eleven.stagnant()).isTrue();
        assertThat(eleven.overheated()).isFalse();

        ticks.add(tick(12).novelty(0.1).stimulus().growth().done());
        Signs twelve = StagnationSigns.evaluate(ticks, SignSettings.DEFAULTS);
        assertThat(twelve.overheated()).isTrue();
        assertThat(twelve.windowTicks()).isEqualTo(12);
        assertThat(twelve.describe())
                .containsExactly("novelty below 0.30 for 2 ticks", "a long run: 12 ticks since the last message");
    }

    @Test
    void a_long_healthy_run_is_not_overheated() {
        Signs s = StagnationSigns.evaluate(busy(30), SignSettings.DEFAULTS);
        assertThat(s.windowTicks()).isEqualTo(30);
        assertThat(s.stagnant()).isFalse();
        assertThat(s.overheated()).isFalse();
        assertThat(s.describe()).isEmpty();
    }

    @Test
    void a_healthy_chat_of_ten_distinct_questions_is_never_stagnant_at_any_prefix() {
        // each tick answers a new message; nothing is built and nothing else comes in; some answers look alike
        SignSettings strict = new SignSettings(0.3, 2, true, 2, 2, 2);
        List<TickObservation> chat = new ArrayList<>();
        double[] novelties = {1.0, 0.8, 0.25, 0.6, 0.2, 0.9, 0.7, 0.28, 0.5, 0.95};
        for (int i = 0; i < 10; i++) {
            chat.add(tick(i + 1).person().novelty(novelties[i]).done());
            for (SignSettings s : List.of(SignSettings.DEFAULTS, strict)) {
                Signs signs = StagnationSigns.evaluate(chat, s);
                assertThat(signs.stagnant()).as("after question %d with %s", i + 1, s).isFalse();
                assertThat(signs.describe()).isEmpty();
            }
        }
    }

    @Test
    void every_sign_has_its_phrase_in_order() {
        SignSettings s = new SignSettings(0.25, 3, true, 4, 5, 6);
        List<TickObservation> ticks = new ArrayList<>();
        for (int i = 1; i <= 6; i++) ticks.add(tick(i).novelty(0.1).done());
        ticks.add(tick(7).identical().repeatOf(3).done());
        assertThat(StagnationSigns.evaluate(ticks, s).describe()).containsExactly(
                "novelty below 0.25 for 3 ticks",
                "repeats tick 3 word for word",
                "no new concept or link for 4 ticks",
                "no new note or result for 5 ticks",
                "a long run: 7 ticks since the last message");
    }

    @Test
    void ticks_out_of_order_are_refused() {
        assertThatThrownBy(() -> StagnationSigns.evaluate(of(tick(3), tick(2)), SignSettings.DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("oldest first");
    }

    @Test
    void signs_refuse_overheated_without_stagnation_and_settings_name_the_bad_field() {
        assertThatThrownBy(() -> new Signs(false, false, true, false, true, 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overheated");
        assertThatThrownBy(() -> new SignSettings(1.5, 2, true, 8, 8, 12)).hasMessageContaining("noveltyThreshold");
        assertThatThrownBy(() -> new SignSettings(0.3, 0, true, 8, 8, 12)).hasMessageContaining("lowNoveltyTicks");
        assertThatThrownBy(() -> new SignSettings(0.3, 2, true, -1, 8, 12)).hasMessageContaining("noGrowthTicks");
        assertThatThrownBy(() -> new TickObservation(5, 0.5, false, 5, false, false, false))
                .hasMessageContaining("repeatOfTick");
    }
}
