package dev.hmpagent.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;

class SignatureTest {
    @Test
    void an_example_gives_optional_parameters_typed_by_their_values() {
        Signature s = Signature.fromExample("{\"path\": \"a\", \"limit\": 10, \"all\": true, \"ids\": [1], \"x\": 1.5}");
        assertEquals("t(path?: string, limit?: integer, all?: boolean, ids?: array, x?: number)", s.line("t"));
        assertEquals("t()", Signature.fromExample("not json").line("t"));
    }

    @Test
    void the_schema_names_every_property_and_the_required_ones() {
        Signature s = Signature.of(Param.required("path", Param.Kind.STRING).alias("filename"),
                Param.optional("tags", Param.Kind.LIST));
        assertEquals("t(path: string, tags?: array)", s.line("t"));
        assertEquals("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"tags\":{\"type\":\"array\","
                + "\"items\":{\"type\":\"string\"}}},\"required\":[\"path\"]}",
                s.jsonSchema(JsonNodeFactory.instance).toString());
    }

    @Test
    void a_spec_in_the_lines_own_notation_gives_names_types_required_and_aliases() {
        Signature s = Signature.parse("path|filename|file: string, content|text: string, append?: boolean, value?: any");
        assertEquals("file_write(path: string, content: string, append?: boolean, value?: any)", s.line("file_write"));
        assertEquals(List.of("filename", "file"), s.params().get(0).aliases());
        assertEquals("filename → path, file → path, text → content", s.aliasLine());
        assertEquals("t()", Signature.parse("").line("t"));
        assertEquals("{\"type\":\"object\",\"properties\":{\"value\":{}}}",
                Signature.parse("value?: any").jsonSchema(JsonNodeFactory.instance).toString());
    }

    @Test
    void a_spec_that_does_not_read_or_names_an_argument_twice_is_refused() {
        assertThrows(IllegalArgumentException.class, () -> Signature.parse("path"));
        assertThrows(IllegalArgumentException.class, () -> Signature.parse("path: text"));
        assertThrows(IllegalArgumentException.class, () -> Signature.parse("path: string, content|path: string"));
    }

    @Test
    void normalising_renames_an_alias_only_where_its_argument_is_absent_and_keeps_the_order() throws Exception {
        Signature s = Signature.parse("path|filename|file: string, content|text: string");
        ObjectMapper json = new ObjectMapper();
        ObjectNode written = (ObjectNode) json.readTree("{\"filename\": \"a.txt\", \"mode\": 1, \"text\": \"hi\"}");
        assertEquals("{\"path\":\"a.txt\",\"mode\":1,\"content\":\"hi\"}", s.normalise(written).toString());
        assertEquals("{\"filename\":\"a.txt\",\"mode\":1,\"text\":\"hi\"}", written.toString(), "the given args stay");
        ObjectNode both = (ObjectNode) json.readTree("{\"file\": \"b\", \"path\": \"a\", \"filename\": \"c\"}");
        assertEquals("{\"file\":\"b\",\"path\":\"a\",\"filename\":\"c\"}", s.normalise(both).toString());
        ObjectNode two = (ObjectNode) json.readTree("{\"file\": \"b\", \"filename\": \"c\"}");
        assertEquals("{\"file\":\"b\",\"path\":\"c\"}", s.normalise(two).toString(), "the first alias declared wins");
    }
}
