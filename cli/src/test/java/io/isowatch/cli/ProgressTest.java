package io.isowatch.cli;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The progress line speaks the verdict's language: findings against the models, and those they allow. */
class ProgressTest {

    @Test
    void line_separatesFindingsAgainstTheModelsFromThoseTheyAllow() {
        assertEquals("h.jsonl: 2,000 events, 1,000 txns checked (500 txn/s); 3 against snapshot-isolation, 462 it allows",
                Progress.line("h.jsonl", "snapshot-isolation", 2_000, 1_000, 500.0, 465, 3));
        assertEquals("h.jsonl: 10 events, 5 txns checked (5 txn/s); no findings so far",
                Progress.line("h.jsonl", "serializable", 10, 5, 5.0, 0, 0));
    }
}
