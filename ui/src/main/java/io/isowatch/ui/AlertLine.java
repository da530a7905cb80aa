package io.isowatch.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.AlertJson;
import io.isowatch.sinks.AlertJson.Fields;
import io.isowatch.sinks.Release;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads an alert back from the JSON {@link AlertJson} writes, by the field names it declares
 * ({@link Fields}): a line of the alerts file or the value of an alerts-topic record. Unknown fields are ignored, as {@link AlertJson#VERSION}'s rule
 * (adding a field keeps the version) requires; a newer version is refused by name. A line without
 * {@code "released"} (written before alerts said) reads as live, which every such alert was.
 */
public final class AlertLine {

    private static final ObjectMapper JSON = new ObjectMapper();

    private AlertLine() {
    }

    /**
     * The alert {@code json} holds.
     *
     * @throws IllegalArgumentException when it is not an alert of a version this reader knows,
     *                                  with the reason
     */
    public static Alert parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("an alert is a JSON object");
        }
        int version = root.path(Fields.VERSION).asInt(AlertJson.VERSION);
        if (version > AlertJson.VERSION) {
            throw new IllegalArgumentException("alert version " + version + " is newer than this console reads ("
                    + AlertJson.VERSION + "); upgrade isowatch");
        }
        JsonNode finding = root.get(Fields.FINDING);
        if (finding == null || !finding.isObject()) {
            throw new IllegalArgumentException("the alert has no \"" + Fields.FINDING + "\" object");
        }
        List<String> models = new ArrayList<>();
        root.path(Fields.MODELS).forEach(m -> models.add(m.asText()));
        JsonNode delay = root.get(Fields.DETECTION_DELAY_MS);
        List<String> agents = new ArrayList<>();
        root.path(Fields.AGENTS).forEach(a -> agents.add(a.asText()));
        return new Alert(text(root, Fields.ID), root.path(Fields.HISTORY).asText(""), text(root, Fields.TYPE),
                text(root, Fields.TITLE), models, root.path(Fields.DETECTED_AT_MS).asLong(0),
                delay == null || delay.isNull() ? Alert.UNKNOWN_DELAY : Math.max(Alert.UNKNOWN_DELAY, delay.asLong()),
                finding.path(Fields.FINDING_EXPLANATION).asText(""), finding.toString(),
                Release.read(optionalText(root, Fields.RELEASED), optionalText(root, Fields.RELEASED_REASON)), agents);
    }

    /** A text field, or null when absent or not text: a line written before the field reads as if it had none. */
    private static String optionalText(JsonNode root, String field) {
        JsonNode v = root.get(field);
        return v == null || !v.isTextual() ? null : v.asText();
    }

    private static String text(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || !v.isTextual() || v.asText().isEmpty()) {
            throw new IllegalArgumentException("the alert has no \"" + field + "\"");
        }
        return v.asText();
    }
}
