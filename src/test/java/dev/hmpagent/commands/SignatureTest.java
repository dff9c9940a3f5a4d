package dev.hmpagent.commands;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
