package dev.hmpagent.stagnation;

import static dev.hmpagent.stagnation.StrategyClass.CONTEXT_CHANGE;
import static dev.hmpagent.stagnation.StrategyClass.EXTERNAL_STIMULATION;
import static dev.hmpagent.stagnation.StrategyClass.INTERNAL_RESTRUCTURING;
import static dev.hmpagent.stagnation.StrategyClass.RADICAL_PAUSE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.stagnation.StagnationSigns.Signs;
import org.junit.jupiter.api.Test;

class DiagnosisTest {
    //                         lowNovelty, repeat, noGrowth, noStimulus, overheated, windowTicks

    @Test
    void signs_that_are_not_stagnant_give_no_diagnosis() {
        assertThat(Diagnosis.diagnose(new Signs(false, false, false, false, false, 5))).isEmpty();
        assertThat(Diagnosis.diagnose(new Signs(false, false, true, false, false, 9))).as("no growth alone").isEmpty();
        assertThat(Diagnosis.diagnose(new Signs(false, false, false, true, false, 9))).as("no stimulus alone").isEmpty();
    }

    @Test
    void repeated_thoughts_while_data_comes_in_call_for_internal_restructuring() {
        assertThat(Diagnosis.diagnose(new Signs(false, true, false, false, false, 3)))
                .containsExactly(INTERNAL_RESTRUCTURING);
        assertThat(Diagnosis.diagnose(new Signs(true, false, false, false, false, 3)))
                .containsExactly(INTERNAL_RESTRUCTURING);
    }

    @Test
    void nothing_in_and_nothing_built_calls_for_fresh_data_then_a_new_context() {
        assertThat(Diagnosis.diagnose(new Signs(false, false, true, true, false, 9)))
                .containsExactly(EXTERNAL_STIMULATION, CONTEXT_CHANGE);
    }

    @Test
    void repeated_thoughts_without_new_data_call_for_fresh_data_first_then_internal_restructuring() {
        assertThat(Diagnosis.diagnose(new Signs(true, false, false, true, false, 9)))
                .containsExactly(EXTERNAL_STIMULATION, INTERNAL_RESTRUCTURING);
        assertThat(Diagnosis.diagnose(new Signs(true, true, true, true, false, 9)))
                .containsExactly(EXTERNAL_STIMULATION, CONTEXT_CHANGE, INTERNAL_RESTRUCTURING);
    }

    @Test
    void repeated_thoughts_in_a_monotonous_context_call_for_a_change_of_context_and_restructuring() {
        assertThat(Diagnosis.diagnose(new Signs(false, true, true, false, false, 9)))
                .containsExactly(CONTEXT_CHANGE, INTERNAL_RESTRUCTURING);
    }

    @Test
    void an_overheated_run_calls_for_a_radical_pause_first() {
        assertThat(Diagnosis.diagnose(new Signs(false, true, false, false, true, 12)))
                .containsExactly(RADICAL_PAUSE, INTERNAL_RESTRUCTURING);
        assertThat(Diagnosis.diagnose(new Signs(true, false, true, true, true, 12)))
                .containsExactly(RADICAL_PAUSE, EXTERNAL_STIMULATION, CONTEXT_CHANGE, INTERNAL_RESTRUCTURING);
    }

    @Test
    void classes_round_trip_through_their_config_names_and_each_says_why() {
        assertThat(StrategyClass.values()).extracting(StrategyClass::configName).containsExactly(
                "external_stimulation", "context_change", "internal_restructuring", "radical_pause");
        for (StrategyClass c : StrategyClass.values()) {
            assertThat(StrategyClass.of(c.configName())).contains(c);
            assertThat(c.why()).isNotBlank().doesNotContain("\n");
        }
        assertThat(StrategyClass.of(" Radical_Pause ")).contains(RADICAL_PAUSE);
        assertThat(StrategyClass.of("cheap")).isEmpty();
        assertThat(StrategyClass.of("RADICAL_PAUSE".replace('_', ' '))).isEmpty();
        assertThat(StrategyClass.of(null)).isEmpty();
    }
}
