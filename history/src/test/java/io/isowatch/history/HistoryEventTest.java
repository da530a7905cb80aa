package io.isowatch.history;

import io.isowatch.history.MicroOp.Append;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The history an event belongs to (issue 37): a name shared by several agents, else its source's own. */
class HistoryEventTest {

    private static final Op OP = new Op(0, 10, OpType.INVOKE, 1, List.of(new Append(5, 1)));

    @Test
    void history_withoutAName_isTheSource_soKeyingBySourceKeepsItsMeaning() {
        HistoryEvent event = new HistoryEvent("agent-7", 0, OP);
        assertEquals("agent-7", event.history());
        assertFalse(event.namesHistory());
    }

    @Test
    void inHistory_namesIt_keepsIdentityAndDeclaration_andIsPartOfTheValue() {
        HistoryEvent own = new HistoryEvent("orders-1", 0, OP).declaringAgentProtocol();
        HistoryEvent named = own.inHistory("orders");
        assertEquals("orders", named.history());
        assertTrue(named.namesHistory());
        assertEquals("orders-1", named.source());
        assertEquals(0, named.sequence());
        assertTrue(named.declaresAgentProtocol());
        assertTrue(named.declaringAgentProtocol().namesHistory(), "declaring keeps the name");
        assertNotEquals(own, named);
        assertEquals(named, new HistoryEvent("orders-1", 0, OP).inHistory("orders").declaringAgentProtocol());
        assertSame(named, named.inHistory("orders"));
    }

    @Test
    void inHistory_keepsTheEncoding_whichDoesNotCarryTheName() {
        byte[] bytes = {1, 2, 3};
        HistoryEvent named = HistoryEvent.decodedFrom("a", 4, OP, bytes).inHistory("h");
        assertArrayEquals(bytes, named.encoding());
    }

    @Test
    void inHistory_refusesAnEmptyName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new HistoryEvent("a", 2, OP).inHistory(""));
        assertTrue(e.getMessage().contains("event 2 of agent a"), e.getMessage());
    }
}
