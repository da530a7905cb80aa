package io.isowatch.history.codec;

import io.isowatch.history.codec.EdnLexer.Token;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EdnLexerTest {

    private static EdnLexer lexer(String text) {
        return new EdnLexer("t.edn", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Each token as TYPE or TYPE:text. */
    private static List<String> tokens(String text) {
        EdnLexer lexer = lexer(text);
        List<String> out = new ArrayList<>();
        Token t;
        while ((t = lexer.next()) != Token.EOF) {
            out.add(switch (t) {
                case STRING, KEYWORD, SYMBOL, OTHER_NUMBER, BIG_INTEGER, CHARACTER -> t + ":" + lexer.text();
                case INTEGER -> t + ":" + lexer.integer();
                default -> t.toString();
            });
        }
        return out;
    }

    @Test
    void scalars_areClassified() {
        assertEquals(List.of("KEYWORD:ok", "SYMBOL:foo/bar", "NIL", "TRUE", "FALSE", "INTEGER:-12", "INTEGER:7",
                        "INTEGER:5", "OTHER_NUMBER:1.5", "OTHER_NUMBER:1/2", "OTHER_NUMBER:2.0M",
                        "BIG_INTEGER:123456789012345678901", "OTHER_NUMBER:Inf", "CHARACTER:newline", "SYMBOL:-",
                        "SYMBOL:+a"),
                tokens(":ok foo/bar nil true false -12 +7 5N 1.5 1/2 2.0M 123456789012345678901 ##Inf \\newline - +a"));
    }

    @Test
    void integers_atTheLimits_areExact() {
        assertEquals(List.of("INTEGER:9223372036854775807", "INTEGER:-9223372036854775808",
                        "BIG_INTEGER:9223372036854775808", "BIG_INTEGER:-9223372036854775809"),
                tokens("9223372036854775807 -9223372036854775808 9223372036854775808 -9223372036854775809"));
    }

    @Test
    void strings_decodeEscapesAndUtf8() {
        assertEquals(List.of("STRING:a\"b\\c\nd\te/", "STRING:é😀", "STRING:é😀", "STRING:"),
                tokens("\"a\\\"b\\\\c\\nd\\te\\/\" \"é😀\" \"\\u00e9\\ud83d\\ude00\" \"\""));
    }

    @Test
    void commentsCommasDiscardsAndTags_areSkipped() {
        assertEquals(List.of("MAP_START", "KEYWORD:a", "INTEGER:1", "KEYWORD:c", "STRING:2024", "MAP_END", "SET_START",
                        "INTEGER:3", "MAP_END"),
                tokens("{:a 1, ; comment [\n #_ [:b {:x 2}] :c #inst \"2024\"},,, #{3}  #_ 4"));
    }

    @Test
    void taggedRecord_yieldsItsMap() {
        assertEquals(List.of("MAP_START", "KEYWORD:index", "INTEGER:0", "MAP_END"),
                tokens("#jepsen.history.Op{:index 0}"));
    }

    @Test
    void depth_tracksOpenBrackets_andSkipFormSkipsNesting() {
        EdnLexer lexer = lexer("[{:a (1 #{2} [3])} :after]");
        assertEquals(Token.VECTOR_START, lexer.next());
        assertEquals(1, lexer.depth());
        lexer.skipForm(lexer.next());
        assertEquals(1, lexer.depth());
        assertEquals(Token.KEYWORD, lexer.next());
        assertEquals("after", lexer.text());
        assertEquals(Token.VECTOR_END, lexer.next());
        assertEquals(0, lexer.depth());
    }

    @Test
    void positions_areOneBasedLineAndByteColumn() {
        EdnLexer lexer = lexer("{:a 1}\n  ; note\n   :b");
        lexer.next();
        assertEquals(1, lexer.tokenLine());
        assertEquals(1, lexer.tokenColumn());
        lexer.next();
        lexer.next();
        assertEquals(5, lexer.tokenColumn());
        lexer.next();
        assertEquals(Token.KEYWORD, lexer.next());
        assertEquals(3, lexer.tokenLine());
        assertEquals(4, lexer.tokenColumn());
    }

    @Test
    void tokensAcrossBufferBoundaries_areIntact() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 30_000; i++) {
            b.append("[:append ").append(i).append(" \"v").append(i).append("\"]\n");
        }
        byte[] bytes = b.toString().getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buf, int off, int len) {
                return super.read(buf, off, Math.min(len, 7));
            }
        };
        EdnLexer lexer = new EdnLexer("t.edn", trickle);
        for (int i = 0; i < 30_000; i++) {
            assertEquals(Token.VECTOR_START, lexer.next());
            assertEquals(Token.KEYWORD, lexer.next());
            assertEquals("append", lexer.text());
            assertEquals(Token.INTEGER, lexer.next());
            assertEquals(i, lexer.integer());
            assertEquals(Token.STRING, lexer.next());
            assertEquals("v" + i, lexer.text());
            assertEquals(Token.VECTOR_END, lexer.next());
            assertEquals(i + 1, lexer.tokenLine());
        }
        assertEquals(Token.EOF, lexer.next());
    }

    @Test
    void badInput_isAnEdnFault() {
        for (String bad : new String[] {"\"\\u12\"", "\"\\ud83d\"", "#", "# x", "[}", ")", "{"}) {
            HistoryFormatException e = assertThrows(HistoryFormatException.class, () -> tokens(bad), bad);
            assertTrue(e.getMessage().startsWith("t.edn:1:"), e.getMessage());
            assertTrue(e.getMessage().contains("invalid EDN: "), e.getMessage());
        }
    }
}
