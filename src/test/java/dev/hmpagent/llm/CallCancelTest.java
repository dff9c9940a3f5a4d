package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A completion's cancel is remembered: it aborts what is attached now, what is attached later, and nothing taken off. */
class CallCancelTest {
    @Test
    void a_cancel_aborts_what_is_attached_and_what_is_attached_after_it_at_once() {
        CallCancel cancel = new CallCancel();
        AtomicInteger before = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        cancel.onCancel(before::incrementAndGet);
        assertThat(before).hasValue(0);

        cancel.cancel();
        cancel.cancel();   // a second cancel aborts nothing twice
        assertThat(before).hasValue(1);
        assertThat(cancel.cancelled()).isTrue();

        cancel.onCancel(after::incrementAndGet);
        assertThat(after).as("attached after the cancel: aborted as it attaches").hasValue(1);
    }

    @Test
    void an_abort_taken_off_when_its_call_ended_is_not_run_by_a_later_cancel() {
        CallCancel cancel = new CallCancel();
        AtomicInteger aborted = new AtomicInteger();
        Runnable off = cancel.onCancel(aborted::incrementAndGet);
        off.run();
        cancel.cancel();
        assertThat(aborted).hasValue(0);
    }
}
