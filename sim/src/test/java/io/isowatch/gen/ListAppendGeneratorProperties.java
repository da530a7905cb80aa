package io.isowatch.gen;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ListAppendGeneratorProperties {

    @Provide
    Arbitrary<GeneratorOptions> small() {
        return GeneratorArbitraries.smallHistories();
    }

    @Property(tries = 500, seed = "20250101")
    void everyHistory_isWellFormed(@ForAll("small") GeneratorOptions options) {
        GeneratedHistory.of(options).assertWellFormed();
    }

    @Property(tries = 500, seed = "20250102")
    void everyHistory_replaysSeriallyInLinearizationOrder(@ForAll("small") GeneratorOptions options) {
        GeneratedHistory.of(options).assertSerialReplayMatches();
    }

    @Property(tries = 500, seed = "20250103")
    void everyHistory_retiresKeysAndKeepsAppendsUnique(@ForAll("small") GeneratorOptions options) {
        GeneratedHistory.of(options).assertKeysRetire();
    }

    @Property(tries = 200, seed = "20250104")
    void sameOptions_yieldTheSameHistory(@ForAll("small") GeneratorOptions options) {
        assertEquals(ListAppendGenerator.generate(options), ListAppendGenerator.generate(options));
    }
}
