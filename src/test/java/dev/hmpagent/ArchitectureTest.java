package dev.hmpagent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructorCall;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * ARCHITECTURE.md's room table, held against the compiled main code: each room imports only the rooms its row
 * names, the rooms form no cycle, the inner rooms never see a terminal, a socket or JDBC, and no test code lives in
 * main. A failure names the class and the dependency that broke the table.
 */
class ArchitectureTest {
    private static final String ROOT = "dev.hmpagent";

    /** Room → the rooms it may import (besides itself). Keep in step with ARCHITECTURE.md. */
    static final Map<String, Set<String>> MAY_IMPORT = table();

    private static Map<String, Set<String>> table() {
        Map<String, Set<String>> t = new LinkedHashMap<>();
        t.put("cli", Set.of("runtime", "repl", "mcp", "a2a", "delegation", "cycle", "context", "llm", "commands", "policy",
                "process", "safety", "stagnation", "store", "config", "event", "text"));
        t.put("runtime", Set.of("mcp", "a2a", "delegation", "cycle", "context", "llm", "commands", "policy", "process",
                "safety", "stagnation", "store", "config", "event", "text"));
        t.put("mcp", Set.of("commands", "policy", "process", "safety", "store", "config", "event", "text"));
        t.put("a2a", Set.of("commands", "policy", "process", "safety", "store", "config", "event", "text"));
        t.put("delegation", Set.of("commands", "llm", "safety", "store", "text"));
        t.put("repl", Set.of("cycle", "store", "config", "event", "text"));
        t.put("cycle", Set.of("context", "llm", "commands", "safety", "stagnation", "store", "event", "text"));
        t.put("commands", Set.of("context", "policy", "process", "safety", "store", "text"));
        t.put("context", Set.of("llm", "store", "text"));
        t.put("stagnation", Set.of("llm", "store", "text"));
        t.put("policy", Set.of("store", "text"));
        t.put("process", Set.of("policy", "text"));
        t.put("safety", Set.of("store", "event", "text"));
        t.put("llm", Set.of("text"));
        t.put("store", Set.of("text"));
        t.put("config", Set.of("text"));
        t.put("event", Set.of());
        t.put("text", Set.of());
        return t;
    }

    private static JavaClasses main;

    @BeforeAll
    static void importMain() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(ROOT);
    }

    /** The room of a class: the first package under the root ({@code dev.hmpagent.llm.openai} is in {@code llm}). */
    static String roomOf(String packageName) {
        if (!packageName.startsWith(ROOT + ".")) return "";
        String rest = packageName.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    @Test
    void every_package_of_main_is_in_a_room_of_the_table() {
        Set<String> unknown = new TreeSet<>();
        for (JavaClass c : main) {
            String room = roomOf(c.getPackageName());
            if (!room.isEmpty() && !MAY_IMPORT.containsKey(room)) unknown.add(c.getPackageName());
        }
        if (!unknown.isEmpty()) {
            throw new AssertionError("packages in no room of ARCHITECTURE.md's table: " + unknown
                    + "; add the room to the table (and to ARCHITECTURE.md) or move the code into one");
        }
    }

    @TestFactory
    Stream<DynamicTest> each_room_imports_only_the_rooms_its_row_names() {
        return MAY_IMPORT.entrySet().stream().map(row -> DynamicTest.dynamicTest(row.getKey(), () -> {
            List<String> forbidden = new ArrayList<>();
            for (String other : MAY_IMPORT.keySet()) {
                if (!other.equals(row.getKey()) && !row.getValue().contains(other)) forbidden.add(ROOT + "." + other + "..");
            }
            if (forbidden.isEmpty()) return;
            noClasses().that().resideInAPackage(ROOT + "." + row.getKey() + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                    .because("ARCHITECTURE.md: " + row.getKey() + " may import " + row.getValue())
                    .check(main);
        }));
    }

    @Test
    void the_rooms_form_no_cycle() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void the_command_protocol_does_not_know_the_catalogue() {
        noClasses().that().resideInAPackage(ROOT + ".commands")
                .should().dependOnClassesThat().resideInAPackage(ROOT + ".commands.catalogue..")
                .because("the families plug into the registry; the registry does not name them")
                .check(main);
    }

    @Test
    void the_inner_rooms_never_see_a_terminal_a_socket_or_jdbc() {
        noClasses().that().resideInAnyPackage(ROOT + ".cycle..", ROOT + ".context..", ROOT + ".safety..",
                        ROOT + ".stagnation..")
                .should().dependOnClassesThat().resideInAnyPackage("org.jline..", "okhttp3..", "java.sql..",
                        "org.sqlite..")
                .because("they talk to interfaces (DESIGN: cycle, context, safety, stagnation)")
                .check(main);
    }

    @Test
    void main_code_depends_on_no_test_library() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("org.junit..", "org.assertj..",
                        "mockwebserver3..", "okhttp3.mockwebserver..", "net.jqwik..", "com.tngtech.archunit..")
                .check(main);
    }

    @Test
    void every_main_class_is_used_by_main_code() {
        ArchRule rule = classes().that().areTopLevelClasses()
                .and(DescribedPredicate.describe("not the entry point", (JavaClass c) -> !c.getName().equals(ROOT + ".cli.Main")))
                .and(DescribedPredicate.describe("not a holder of constants (javac copies them into their users)",
                        (JavaClass c) -> !onlyConstants(c)))
                .should(new ArchCondition<JavaClass>("be used by other main code (test-only code belongs in src/test)") {
                    @Override
                    public void check(JavaClass c, ConditionEvents events) {
                        boolean used = c.getDirectDependenciesToSelf().stream()
                                .map(Dependency::getOriginClass)
                                .map(o -> o.getEnclosingClass().map(e -> topLevel(e)).orElse(o))
                                .anyMatch(o -> !o.equals(c));
                        if (!used) events.add(SimpleConditionEvent.violated(c, c.getName() + " is used by no main class"));
                    }
                });
        rule.check(main);
    }

    /**
     * One halt road (issue 36): the composition root makes the agent's one stop signal and registers on it all a halt
     * stops; nobody else makes one (a second signal would hear no halt).
     */
    @Test
    void only_the_runtime_room_makes_a_stop_signal() {
        String signal = ROOT + ".safety.StopSignal";
        noClasses().that().resideOutsideOfPackage(ROOT + ".runtime..").and().doNotHaveFullyQualifiedName(signal)
                .should().callConstructor(signal, signal + "$Persisted")
                .orShould().callMethod(signal, "over", ROOT + ".store.Store")
                .because("the composition root makes the one StopSignal of an agent").check(main);
    }

    private static boolean onlyConstants(JavaClass c) {
        return c.getMethods().isEmpty() && !c.getFields().isEmpty() && c.getFields().stream()
                .allMatch(f -> f.getModifiers().containsAll(Set.of(JavaModifier.STATIC, JavaModifier.FINAL)));
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) t = t.getEnclosingClass().get();
        return t;
    }

    @Test
    void only_the_process_room_starts_processes() {
        noClasses().that().resideOutsideOfPackage(ROOT + ".process..")
                .should().dependOnClassesThat().belongToAnyOf(ProcessBuilder.class)
                .orShould().callMethodWhere(DescribedPredicate.describe("Runtime.exec",
                        (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(Runtime.class)
                                && call.getName().equals("exec")))
                .because("a child of the agent gets the allow-listed environment, the sandbox and a tree kill from the"
                        + " process room; the other rooms ask it (the alert command, an MCP server)")
                .check(main);
    }

    /**
     * One cancel road (issue 36): an LLM call is cancelled by the {@code llm.CallCancel} its caller hands down with
     * it, never by a {@code cancel()} on the client, which would have to be forwarded through every layer and finds no
     * call before the HTTP client attached one. Held for the fakes in src/test too.
     */
    @Test
    void an_llm_call_is_cancelled_only_by_its_call_cancel() {
        JavaClasses withTests = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages(ROOT);
        String client = ROOT + ".llm.LlmClient";
        List<String> found = new ArrayList<>();
        for (JavaClass c : withTests) {
            if (!c.isAssignableTo(client)) continue;
            c.getMethods().stream()
                    .filter(m -> m.getName().equals("cancel") && m.getRawParameterTypes().isEmpty())
                    .filter(m -> c.getName().equals(client) || m.getModifiers().contains(JavaModifier.PUBLIC))
                    .forEach(m -> found.add(m.getFullName()));
        }
        assertThat(found).as("cancel() on an LlmClient").isEmpty();
    }

    /** One configured factory (issue 36): a JSON mapper is made by {@code text.Json} only, so no two drift apart. */
    @Test
    void json_mappers_are_made_by_the_one_factory() {
        noClasses().that().resideOutsideOfPackage(ROOT + ".text..")
                .should().callConstructorWhere(DescribedPredicate.describe("a JSON mapper's constructor",
                        (JavaConstructorCall call) -> call.getTargetOwner().isEquivalentTo(
                                com.fasterxml.jackson.databind.ObjectMapper.class)
                                || call.getTargetOwner().isEquivalentTo(
                                com.fasterxml.jackson.databind.json.JsonMapper.class)))
                .orShould().callMethodWhere(DescribedPredicate.describe("JsonMapper.builder",
                        (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(
                                com.fasterxml.jackson.databind.json.JsonMapper.class)
                                && call.getName().equals("builder")))
                .because("text.Json makes every mapper from the project's settings").check(main);
    }
}
