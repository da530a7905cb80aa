package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of malformed input yields a fault that names the place, the field and the value. */
class HistoryFormatExceptionTest {

    private static final String GOOD_JSON = "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[]}\n";
    private static final String GOOD_EDN = "{:type :invoke, :process 0, :f :txn, :value []}\n";

    private static HistoryFormatException fault(String sourceName, String text) {
        return assertThrows(HistoryFormatException.class,
                () -> HistoryReaderTest.readAll(sourceName, text, new AtomTable()));
    }

    /** A JSON op with the given fields after a good first line, so faults sit on line 2. */
    private static HistoryFormatException jsonFault(String fields) {
        return fault("h.jsonl", GOOD_JSON + "{" + fields + "}\n");
    }

    private static HistoryFormatException ednFault(String fields) {
        return fault("h.edn", GOOD_EDN + "{" + fields + "}\n");
    }

    private static void assertContains(String expected, String actual) {
        assertTrue(actual.contains(expected), () -> "expected «" + expected + "» in «" + actual + "»");
    }

    @Test
    void unknownType_json_namesLineFieldAndValue() {
        HistoryFormatException e = jsonFault("\"type\":\"okay\",\"process\":0,\"f\":\"txn\",\"value\":[]");
        assertEquals("h.jsonl:2: field \"type\": unknown operation type \"okay\" (expected invoke, ok, fail or info)",
                e.getMessage());
        assertEquals("h.jsonl", e.sourceName());
        assertEquals(2, e.line());
        assertEquals("type", e.field());
        assertEquals("okay", e.valueText());
        assertEquals(9, e.column());
    }

    @Test
    void unknownType_edn_namesLineFieldAndValue() {
        HistoryFormatException e = ednFault(":type :okay, :process 0, :f :txn, :value []");
        assertEquals("h.edn:2: field \"type\": unknown operation type \"okay\" (expected invoke, ok, fail or info)",
                e.getMessage());
    }

    @Test
    void unknownMicroOp_namesLineAndFunction() {
        HistoryFormatException json = jsonFault("\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",1,null],[\"inc\",1,1]]");
        assertEquals("h.jsonl:2: field \"value\": micro-op 2: unknown function \"inc\" (expected append, r or w)",
                json.getMessage());
        assertEquals("inc", json.valueText());
        HistoryFormatException edn = ednFault(":type :invoke, :process 0, :f :txn, :value [[:inc 1 1]]");
        assertEquals("h.edn:2: field \"value\": micro-op 1: unknown function \"inc\" (expected append, r or w)",
                edn.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "[[\"append\"]]             | [[:append]]             | micro-op 1: expected 3 elements [f, key, value], found 1",
        "[[\"append\",1]]           | [[:append 1]]           | micro-op 1: expected 3 elements [f, key, value], found 2",
        "[[\"r\",1,null,2,[3]]]     | [[:r 1 nil 2 [3]]]      | micro-op 1: expected 3 elements [f, key, value], found 5",
        "[[]]                       | [[]]                    | micro-op 1: expected 3 elements [f, key, value], found 0",
        "5                          | 5                       | expected a list of micro-ops",
        "[5]                        | [5]                     | micro-op 1: expected a list [f, key, value], found 5",
        "[[1,2,3]]                  | [[1 2 3]]               | micro-op 1: expected a function name (append, r or w), found 1",
        "[[\"append\",1.5,2]]       | [[:append 1.5 2]]       | micro-op 1: the key must be an integer or a string, found 1.5",
        "[[\"append\",1,{\"a\":1}]] | [[:append 1 {:a 1}]]    | micro-op 1: an appended value must be an integer or a string, found a",
        "[[\"w\",1,true]]           | [[:w 1 true]]           | micro-op 1: a written value must be an integer or a string, found true",
        "[[\"w\",1,null]]           | [[:w 1 nil]]            | micro-op 1: a write needs an integer or string value, found null",
        "[[\"r\",1,[1,2.5]]]        | [[:r 1 [1 2.5]]]        | micro-op 1: a read element must be an integer or a string, found 2.5",
        "[[\"r\",1,{}]]             | [[:r 1 {}]]             | micro-op 1: a read's result must be a list, a single integer or string, or null",
        "[[\"r\",[1],null]]         | [[:r [1] nil]]          | micro-op 1: the key must be an integer or a string, found a",
        "[[\"append\",1,99999999999999999999]] | [[:append 1 99999999999999999999]] | micro-op 1: integer 99999999999999999999 does not fit in 64 bits",
        "[[\"append\",1,-9223372036854775808]] | [[:append 1 -9223372036854775808]] | micro-op 1: integer -9223372036854775808 is too small to be checked",
    })
    void badValue_isAFaultOfFieldValue(String json, String edn, String expected) {
        for (HistoryFormatException e : new HistoryFormatException[] {
                jsonFault("\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":" + json),
                ednFault(":type :invoke, :process 0, :f :txn, :value " + edn)}) {
            assertEquals(2, e.line(), e.getMessage());
            assertEquals("value", e.field(), e.getMessage());
            assertContains(expected, e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "type    | \"process\":0,\"f\":\"txn\",\"value\":[]             | :process 0, :f :txn, :value []",
        "type    | \"process\":\"nemesis\"                                | :process :nemesis",
    })
    void missingField_isNamed(String field, String json, String edn) {
        for (HistoryFormatException e : new HistoryFormatException[] {jsonFault(json), ednFault(edn)}) {
            assertEquals(field, e.field());
            assertEquals(2, e.line());
            assertContains("field \"" + field + "\": missing", e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "type    | \"type\":5,\"process\":0,\"f\":\"txn\",\"value\":[]            | :type 5, :process 0, :f :txn, :value []            | expected an operation type (invoke, ok, fail or info), found 5",
        "index   | \"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[],\"index\":\"3\" | :type :ok, :process 0, :f :txn, :value [], :index \"3\" | expected an integer index, found \"3\"",
        "time    | \"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[],\"time\":1.5 | :type :ok, :process 0, :f :txn, :value [], :time 1.5 | expected an integer time in nanoseconds, found 1.5",
        "process | \"type\":\"ok\",\"process\":99999999999999999999,\"f\":\"txn\",\"value\":[] | :type :ok, :process 99999999999999999999, :f :txn, :value [] | does not fit in 64 bits",
    })
    void illTypedField_isNamed(String field, String json, String edn, String expected) {
        for (HistoryFormatException e : new HistoryFormatException[] {jsonFault(json), ednFault(edn)}) {
            assertEquals(field, e.field(), e.getMessage());
            assertEquals(2, e.line());
            assertContains(expected, e.getMessage());
        }
    }

    @Test
    void clientOp_badValueBeforeProcess_isStillAFault() {
        HistoryFormatException e = jsonFault("\"type\":\"ok\",\"f\":\"txn\",\"value\":[[\"inc\",1,1]],\"process\":4");
        assertEquals("value", e.field());
        assertEquals("inc", e.valueText());
    }

    @Test
    void clientOp_badValueThenMoreFields_faultIsKeptWhileTheRestIsParsed() {
        HistoryFormatException e = fault("h.jsonl",
                "{\"value\":[[\"r\",[[1]],{\"x\":[2]}],[\"w\",1,2]],\"type\":\"ok\",\"f\":\"txn\",\"process\":4}\n" + GOOD_JSON);
        assertContains("the key must be an integer or a string, found an array", e.getMessage());
        HistoryFormatException edn = fault("h.edn",
                "{:value [[:r [[1]] {:x [2]}] [:w 1 2]], :type :ok, :f :txn, :process 4}\n" + GOOD_EDN);
        assertContains("the key must be an integer or a string, found a vector", edn.getMessage());
    }

    @Test
    void badJsonSyntax_namesLineColumnAndWhatWasFound() {
        HistoryFormatException e = fault("h.jsonl", GOOD_JSON + GOOD_JSON + "{\"type\":\"ok\",,\"process\":0}\n");
        assertEquals(3, e.line());
        assertEquals(14, e.column());
        assertNull(e.field());
        assertTrue(e.getMessage().startsWith("h.jsonl:3:14: invalid JSON: Unexpected character (','"), e.getMessage());
    }

    @Test
    void truncatedJson_namesTheEnd() {
        HistoryFormatException e = fault("h.jsonl", GOOD_JSON + "{\"type\":\"ok\",\"value\":[[\"r\",1");
        assertEquals(2, e.line());
        assertContains("invalid JSON: Unexpected end-of-input", e.getMessage());
        assertTrue(!e.getMessage().contains("Source:"), e.getMessage());
    }

    @Test
    void jsonTopLevelNonObject_isAFault() {
        HistoryFormatException e = fault("h.jsonl", GOOD_JSON + "[1]\n");
        assertEquals("h.jsonl:2:1: expected an op map such as {\"type\": \"invoke\", ...}, found an array", e.getMessage());
    }

    @Test
    void jsonArray_trailingContent_isAFault() {
        HistoryFormatException e = fault("h.json", "[" + GOOD_JSON + "]\n{}");
        assertContains("expected the end of input after the closing bracket of the history, found an object",
                e.getMessage());
        assertEquals(3, e.line());
    }

    @Test
    void jsonArray_unclosed_isAFault() {
        HistoryFormatException e = fault("h.json", "[" + GOOD_JSON + "," + GOOD_JSON);
        assertContains("invalid JSON: Unexpected end-of-input", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "{:type :ok, :process 0                        | 3 | 1  | the map or set opened on line 2 is never closed",
        "{:type :ok, :process 0]                       | 2 | 23 | unexpected ']': the map or set opened on line 2 must be closed with '}' first",
        "{:type :ok, :value \"abc                      | 2 | 20 | a string starting here is never closed",
        "{:type :ok, :value \"a\\qb\"}                 | 2 | 23 | invalid escape '\\q' in a string",
        "{:type :invoke, :process 0, :f :txn, :value []}}      | 2 | 48 | unexpected '}' with no open bracket to close",
        "{:type :ok :process}                          | 2 | 20 | the op map has a key without a value",
        "{:type : ok}                                  | 2 | 8  | a ':' must start a keyword",
        "5                                             | 2 | 1  | expected an op map such as",
    })
    void badEdnSyntax_namesLineAndColumn(String op, long line, int column, String expected) {
        HistoryFormatException e = fault("h.edn", GOOD_EDN + op + "\n");
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(column, e.column(), e.getMessage());
        assertContains(expected, e.getMessage());
    }

    @Test
    void ednVector_trailingContent_isAFault() {
        HistoryFormatException e = fault("h.edn", "[" + GOOD_EDN + "] {}");
        assertContains("expected the end of input after the closing bracket of the history, found a map", e.getMessage());
    }

    @Test
    void syntaxFault_messageShowsColumn_fieldFaultDoesNot() {
        HistoryFormatException syntax = new HistoryFormatException("f", 3, 7, null, null, "bad");
        HistoryFormatException field = new HistoryFormatException("f", 3, 7, "type", "x", "bad");
        assertEquals("f:3:7: bad", syntax.getMessage());
        assertEquals("f:3: field \"type\": bad", field.getMessage());
        assertEquals("bad", field.detail());
    }
}
