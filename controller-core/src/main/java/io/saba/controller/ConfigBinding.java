package io.saba.controller;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.TreeSet;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads YAML configuration and checks each section against a typed shape (a record), so that every level of a
 * configuration is validated the same way: an unknown key, or a value of the wrong type, is one line naming the
 * input and the key's path, never a default silently put in its place.
 */
public final class ConfigBinding {
    private static final ObjectMapper STRICT = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .build();

    private ConfigBinding() {
    }

    /** The YAML text as a tree; a syntax error is one line: {@code SOURCE:LINE:COLUMN: what was expected}. */
    public static JsonNode readTree(String text, String source) {
        try {
            return STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(syntax(e, source), e);
        }
    }

    private static String syntax(JsonProcessingException e, String source) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException m && m.getProblemMark() != null) {
                Mark at = m.getProblemMark();
                String context = m.getContext() == null ? "" : " (" + m.getContext() + ")";
                return source + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1) + ": " + m.getProblem() + context;
            }
        }
        var at = e.getLocation();
        return source + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr()) + ": "
                + e.getOriginalMessage().lines().findFirst().orElse("not YAML");
    }

    /**
     * Checks {@code node} against {@code shape}.
     *
     * @param source names the input in the message (a file, "command line")
     * @param prefix the section's path in the input ("" at the top), e.g. "topology"
     */
    public static <T> T check(JsonNode node, Class<T> shape, String source, String prefix) {
        try {
            return STRICT.treeToValue(node, shape);
        } catch (UnrecognizedPropertyException e) {
            TreeSet<String> known = new TreeSet<>();
            e.getKnownPropertyIds().forEach(k -> known.add(String.valueOf(k)));
            throw new IllegalArgumentException(source + ": unknown key '" + path(prefix, e) + "'; known keys: " + known,
                    e);
        } catch (InvalidFormatException e) {
            throw new IllegalArgumentException(source + ": " + path(prefix, e) + ": '" + e.getValue() + "' is not "
                    + expected(e.getTargetType()), e);
        } catch (MismatchedInputException e) {
            throw new IllegalArgumentException(source + ": " + path(prefix, e) + ": expected "
                    + expected(e.getTargetType()), e);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(source + ": " + path(prefix, e) + ": "
                    + e.getOriginalMessage().lines().findFirst().orElse("not valid here"), e);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(source + ": " + e.getOriginalMessage(), e);
        }
    }

    /** What a value of this type is called in a configuration. */
    private static String expected(Class<?> type) {
        if (type == null) {
            return "another kind of value";
        }
        if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
            return "an integer";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        if (type == String.class) {
            return "a single value";
        }
        return "a mapping";
    }

    private static String path(String prefix, JsonMappingException e) {
        StringBuilder s = new StringBuilder(prefix);
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                s.append(s.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                s.append('[').append(r.getIndex()).append(']');
            }
        }
        return s.toString();
    }
}
