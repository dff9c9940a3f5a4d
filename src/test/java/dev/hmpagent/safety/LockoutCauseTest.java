package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A lockout names the command that kept failing as a person would type it, not as the JSON the model wrote. */
class LockoutCauseTest {
    @Test
    void a_shell_command_is_its_command_line() {
        assertThat(LockoutCause.typed("shell", "{\"cmd_id\":\"c-1\",\"type\":\"shell\",\"args\":{\"command\":"
                + "\"ls /no/such/dir\"}}")).isEqualTo("ls /no/such/dir");
    }

    @Test
    void a_tool_is_its_name_and_arguments_quoted_where_a_shell_would_need_it() {
        assertThat(LockoutCause.typed("file_read", "{\"type\":\"file_read\",\"args\":{\"path\":\"settings.cfg\"}}"))
                .isEqualTo("file_read settings.cfg");
        assertThat(LockoutCause.typed("mcp_call", "{\"type\":\"search\",\"args\":{\"query\":\"it's late\","
                + "\"limit\":3}}")).isEqualTo("search 'it'\\''s late' 3");
    }

    @Test
    void a_row_without_json_is_named_by_its_type_and_unreadable_json_is_kept_as_it_is() {
        assertThat(LockoutCause.typed("chanting", null)).isEqualTo("chanting");
        assertThat(LockoutCause.typed("shell", "{not json")).isEqualTo("{not json");
    }
}
