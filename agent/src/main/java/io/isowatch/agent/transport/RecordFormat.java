package io.isowatch.agent.transport;

/**
 * How the shipper writes an event into a record of the history topic. The stream job reads both,
 * telling them apart by the binary form's magic number, so agents of either setting can ship to
 * one topic.
 */
public enum RecordFormat {
    /**
     * The spool's own binary form ({@code BinaryEventCodec}): about a quarter of the JSON's bytes,
     * and neither the shipper nor the job runs a text encoder or parser for it. The default.
     */
    BINARY,
    /**
     * One Jepsen op map in JSON per record ({@code HistoryEventJson}), readable with any Kafka
     * tool ({@code kcat}, {@code kafka-console-consumer}); what agents shipped before binary
     * records, and the form any other producer may write.
     */
    JSON;

    /** The format of a flag's value ({@code binary} or {@code json}, any case). */
    public static RecordFormat parse(String text) {
        for (RecordFormat f : values()) {
            if (f.name().equalsIgnoreCase(text == null ? "" : text.trim())) {
                return f;
            }
        }
        throw new IllegalArgumentException("expected binary or json, got \"" + text + "\"");
    }
}
