package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.ParsedCommand;
import org.junit.jupiter.api.Test;

class FingerprintTest {
    final ObjectMapper mapper = new ObjectMapper();

    String ofBlock(String json) {
        ParsedCommand c = new CommandBlockParser(mapper).parse("t\n# Commands:\n" + json).commands().get(0);
        return Fingerprint.ofCommand(c.type(), c.args());
    }

    @Test
    void key_order_whitespace_and_nesting_order_do_not_change_it() {
        String a = ofBlock("{\"type\": \"shell\", \"args\": {\"command\": \"ls\", \"opts\": {\"a\": 1, \"b\": [1, {\"y\": 2, \"x\": 3}]}}}");
        String b = ofBlock("{\"args\": {\"opts\": {\"b\": [1, {\"x\": 3,\n \"y\": 2}], \"a\": 1},   \"command\": \"ls\"}, \"type\": \"shell\"}");
        assertThat(a).isEqualTo(b).matches("[0-9a-f]{16}");
    }

    @Test
    void cmd_id_and_description_do_not_change_it() {
        String a = ofBlock("{\"cmd_id\": \"c-1\", \"type\": \"file_read\", \"args\": {\"path\": \"x\"}, \"description\": \"one\"}");
        String b = ofBlock("{\"cmd_id\": \"c-9\", \"type\": \"file_read\", \"args\": {\"path\": \"x\"}, \"description\": \"two\"}");
        assertThat(a).isEqualTo(b);
    }

    @Test
    void other_args_or_another_type_give_another_fingerprint() {
        String base = ofBlock("{\"type\": \"file_read\", \"args\": {\"path\": \"x\"}}");
        assertThat(ofBlock("{\"type\": \"file_read\", \"args\": {\"path\": \"y\"}}")).isNotEqualTo(base);
        assertThat(ofBlock("{\"type\": \"file_list\", \"args\": {\"path\": \"x\"}}")).isNotEqualTo(base);
        assertThat(ofBlock("{\"type\": \"file_read\", \"args\": {\"path\": [\"x\"]}}")).isNotEqualTo(base);
        // arrays keep their order: a different order is a different command
        assertThat(ofBlock("{\"type\": \"process_close\", \"args\": {\"ids\": [1, 2]}}"))
                .isNotEqualTo(ofBlock("{\"type\": \"process_close\", \"args\": {\"ids\": [2, 1]}}"));
    }

    @Test
    void it_is_the_first_16_hex_of_sha256_of_type_colon_canonical_args() throws Exception {
        JsonNode args = mapper.readTree("{\"b\": 1, \"a\": \"x\"}");
        byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                .digest("shell:{\"a\":\"x\",\"b\":1}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(Fingerprint.ofCommand("shell", args))
                .isEqualTo(java.util.HexFormat.of().formatHex(digest).substring(0, 16));
    }

    @Test
    void a_fresh_uuid_or_long_hex_id_in_the_arguments_is_the_same_attempt_but_other_text_is_not() throws Exception {
        String a = Fingerprint.ofCommand("file_read", mapper.readTree(
                "{\"path\": \"settings-0f8b6a4e-3c1d-4e2a-9b7c-5d6e7f8a9b0c.cfg\"}"));
        String b = Fingerprint.ofCommand("file_read", mapper.readTree(
                "{\"path\": \"settings-A1B2C3D4-E5F6-4a7b-8c9d-0e1f2a3b4c5d.cfg\"}"));
        assertThat(a).as("two UUIDs").isEqualTo(b);
        assertThat(Fingerprint.ofCommand("shell", mapper.readTree("{\"command\": \"curl -H 'X-Request: "
                + "9e107d9d372bb6826bd81d3542a419d6' http://x\"}"))).as("an MD5-long request id")
                .isEqualTo(Fingerprint.ofCommand("shell", mapper.readTree("{\"command\": \"curl -H 'X-Request: "
                        + "e4d909c290d0fb1ca068ffaddf22cbd0' http://x\"}")));
        assertThat(Fingerprint.ofCommand("shell", mapper.readTree("{\"command\": \"git show 3f2a9c1\"}")))
                .as("a short hash is not a fresh id: another commit is another command")
                .isNotEqualTo(Fingerprint.ofCommand("shell", mapper.readTree("{\"command\": \"git show 9b8e7d6\"}")));
        assertThat(Fingerprint.ofCommand("file_read", mapper.readTree("{\"path\": \"settings-1.cfg\"}")))
                .isNotEqualTo(Fingerprint.ofCommand("file_read", mapper.readTree("{\"path\": \"settings-2.cfg\"}")));
    }
}
